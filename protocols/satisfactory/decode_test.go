package satisfactory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// want is a testdata/NAME.expected.json: what NAME.hex decodes to.
type want struct {
	prototest.HexVector
	Legacy               bool
	Cookie               string // hex
	State, Version, Name string
	Modded               prototest.Opt[bool]
	SubStates            []string `json:"sub_states"` // "name version"
	Trailing             int
	Info                 map[string]string // a subset of Info
}

func wantOf(t testing.TB, name string) want {
	return prototest.ReadJSON[want](t, filepath.Join("testdata", name+".expected.json"))
}

func TestDecodeVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		resp, err := decode(b)
		if w.Refused(t, b, err) {
			return
		}
		cookie, _ := strconv.ParseUint(w.Cookie, 0, 64)
		if resp.Legacy != w.Legacy || resp.Cookie != cookie || resp.Trailing != w.Trailing || answers(b, cookie) != nil {
			t.Errorf("legacy/cookie/trailing = %v/%#x/%d, want %+v; answers: %v", resp.Legacy, resp.Cookie, resp.Trailing, w, answers(b, cookie))
		}
		checkResult(t, resp.Result(), w)
	})
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	modded := protocols.FlagUnknown
	if !w.Modded.Null {
		modded = protocols.FlagOf(w.Modded.V)
	}
	if res.State != w.State || res.Version != w.Version || res.Name != w.Name || res.Modded != modded {
		t.Errorf("state/version/name/modded = %q/%q/%q/%v, want %+v", res.State, res.Version, res.Name, res.Modded, w)
	}
	if !slices.Equal(res.States, []string{"offline", "idle", "loading", "playing"}) {
		t.Errorf("States = %q", res.States)
	}
	subs := []string{}
	for _, s := range res.SubStates {
		subs = append(subs, fmt.Sprint(s.Name, " ", s.Version))
	}
	if !slices.Equal(subs, w.SubStates) {
		t.Errorf("SubStates = %v, want %v", subs, w.SubStates)
	}
	// The Lightweight Query reports no count at all: neither players nor bots.
	prototest.CheckBots(t, res, prototest.Unknown, prototest.Unknown, true)
	if res.MaxPlayers.Known || res.Password != protocols.FlagUnknown {
		t.Errorf("reported counts/password the protocol does not carry: %+v", res)
	}
	prototest.CheckInfoHas(t, res, w.Info)
}

func TestDecodeEdgeInputs(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {0xD5}, {0xD5, 0xF6, 1}, {1}, {1, 0}} {
		if _, err := decode(b); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("Decode(% X) = %v, want ErrTruncated", b, err)
		}
	}
	// Every prefix of a valid response fails cleanly as truncated.
	full := prototest.HexFile(t, "playing_djwoodz.hex")
	for n := range len(full) {
		if _, err := decode(full[:n]); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("prefix %d: %v, want ErrTruncated", n, err)
		}
	}
}

// One byte changed in a good vector: an invalid UTF-8 name is replaced, a state
// the spec does not name is its number.
func TestMutatedVectors(t *testing.T) {
	for _, c := range []struct {
		file      string
		at        int
		b         byte
		nameState string
	}{
		{"trailing_bytes.hex", 28, 0xFF, "\uFFFD/playing"}, // the name "A"
		{"playing_djwoodz.hex", 12, 7, "Satisfactory Server/7"},
		{"playing_djwoodz.hex", 12, 0, "Satisfactory Server/offline"},
	} {
		b := prototest.HexFile(t, c.file)
		b[c.at] = c.b
		resp, err := decode(b)
		if err != nil || resp.Result().Name+"/"+resp.Result().State != c.nameState {
			t.Errorf("%s[%d] = %#x: %v %+v, want %s", c.file, c.at, c.b, err, resp, c.nameState)
		}
	}
}

func TestRequestLayout(t *testing.T) {
	// Spec §3 example (gamedig, cookie 5×8).
	want := []byte{0xD5, 0xF6, 0x00, 0x01, 5, 5, 5, 5, 5, 5, 5, 5, 0x01}
	if got := request(0x0505050505050505); !slices.Equal(got, want) {
		t.Errorf("Request = % X, want % X", got, want)
	}
	wantLegacy := []byte{0, 0, 8, 7, 6, 5, 4, 3, 2, 1}
	if got := legacyRequest(0x0102030405060708); !slices.Equal(got, wantLegacy) {
		t.Errorf("LegacyRequest = % X, want % X", got, wantLegacy)
	}
}

// answers takes a datagram with the poll's cookie as the answer, so that decode
// can say what is wrong with its body; other cookies, short and foreign ones
// are skipped.
func TestAnswers(t *testing.T) {
	b, legacy := prototest.HexFile(t, "playing_djwoodz.hex"), prototest.HexFile(t, "legacy_v0.hex")
	for _, c := range []struct {
		name   string
		b      []byte
		cookie uint64
		want   error
	}{
		{"answer", b, 0x0102030405060708, nil},
		{"other cookie", b, 0x0102030405060709, wire.ErrMismatch},
		{"11 bytes", b[:11], 0x0102030405060708, wire.ErrTruncated},
		{"garbage", []byte("garbage datagram"), 0, wire.ErrMalformed},
		{"legacy", legacy, 0x0123456789ABCDEF, nil},
		{"legacy 9 bytes", legacy[:9], 0x0123456789ABCDEF, wire.ErrTruncated},
		{"truncated body, intact cookie", b[:20], 0x0102030405060708, nil},
		{"erratum 4: the poll itself (message type 0, not 1)", request(1), 1, wire.ErrMalformed},
	} {
		if err := answers(c.b, c.cookie); !errors.Is(err, c.want) || (err == nil) != (c.want == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestErrata pins the errata of spec §5 and the client bugs it warns about that
// the vector tables do not show by themselves (erratum 1: playing_djwoodz's
// sub-states and erratum1_doc_substate_layout; 2: long_name and
// erratum2_doc_name_offset; 3: FuzzDecode's length sum and
// erratum3_doc_terminator_offset; gamedig's inverted header check:
// gamedig_header_0102; djwoodz's bytewise names: idle_modded_utf8).
func TestErrata(t *testing.T) {
	t.Run("4_response_message_type_is_1_not_poll", func(t *testing.T) {
		if !slices.Equal(prototest.HexFile(t, "erratum4_poll_message_type.hex"), request(1)) {
			t.Errorf("vector is not the poll for cookie 1") // TestAnswers refuses the poll
		}
	})
	t.Run("5_cookie_is_opaque", func(t *testing.T) {
		for _, c := range []uint64{0, 1, 0x8000000000000000, ^uint64(0), 0x0102030405060708} {
			b := prototest.HexFile(t, "playing_djwoodz.hex")
			copy(b[4:12], request(c)[4:12])
			resp, err := decode(b)
			if err != nil || resp.Cookie != c || answers(b, c) != nil {
				t.Errorf("cookie %#x: decoded %#x, %v", c, resp.Cookie, err)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "playing_djwoodz.hex"), func(vec []byte) error {
		resp, err := decode(vec)
		if err == nil {
			resp.Result()
		}
		return err
	})
}

// FuzzDecode: a decoded reply's length adds up and its sub-states are
// distinct (FuzzResults: the Result is UTF-8).
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		resp, err := decode(b)
		_ = answers(b, 0)
		if err != nil {
			return nil
		}
		if n := len(resp.SubStates); !resp.Legacy {
			nameLen := int(binary.LittleEndian.Uint16(b[26+3*n:]))
			if len(b) != 29+3*n+nameLen+resp.Trailing {
				t.Fatalf("length %d does not add up: %+v", len(b), resp)
			}
		}
		res := resp.Result()
		seen := map[string]bool{}
		for _, s := range res.SubStates {
			if seen[s.Name] {
				t.Fatalf("duplicate sub-state %s", s.Name)
			}
			seen[s.Name] = true
		}
		return res
	})
}
