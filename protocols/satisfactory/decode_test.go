package satisfactory

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// loadHex reads a hand-built vector (see prototest.ParseHex).
func loadHex(t testing.TB, name string) []byte { return prototest.HexFile(t, name) }

type want struct {
	legacy    bool
	cookie    uint64
	state     string
	version   string
	name      string
	modded    protocols.Flag
	subStates []protocols.SubState
	trailing  int
	info      map[string]string // a subset of Info
}

func TestDecodeVectors(t *testing.T) {
	for _, tc := range []struct {
		file string
		size int
		want want
	}{
		{"playing_djwoodz.hex", 60, want{
			cookie: 0x0102030405060708, state: "playing", version: "366202",
			name: "Satisfactory Server", modded: protocols.FlagFalse,
			subStates: []protocols.SubState{
				{Name: "ServerGameState", Version: 17}, {Name: "ServerOptions", Version: 1},
				{Name: "SaveCollection", Version: 5}, {Name: "AdvancedGameSettings", Version: 1},
			},
			info: map[string]string{"state": "3", "flags": "0x0", "flag_modded": "false", "sub_state_SaveCollection": "5"},
		}},
		{"idle_modded_utf8.hex", 45, want{
			cookie: ^uint64(0), state: "idle", version: "0", name: "Fabrik Ü 工厂",
			modded: protocols.FlagTrue,
			info:   map[string]string{"flags": "0x800000000000001f", "flag_modded": "true", "flag_custom1": "true", "flag_custom4": "true"},
		}},
		{"loading_unknown_substates.hex", 47, want{
			state: "loading", version: "123456", modded: protocols.FlagFalse,
			subStates: []protocols.SubState{
				{Name: "Custom1", Version: 65535}, {Name: "ServerGameState", Version: 2}, {Name: "Custom4", Version: 0},
			},
			info: map[string]string{
				"flag_custom2": "true", "flag_modded": "false", "sub_state_unknown_9": "4660",
				"sub_state_unknown_200": "1", "sub_state_duplicate_ServerGameState": "99",
			},
		}},
		{"long_name.hex", 292, want{
			cookie: 42, state: "playing", version: "1", name: strings.Repeat("Satisfactory Server ", 13),
			modded: protocols.FlagTrue, subStates: []protocols.SubState{{Name: "ServerOptions", Version: 7}},
		}},
		{"trailing_bytes.hex", 32, want{
			cookie: 1, state: "playing", version: "366202", name: "A", modded: protocols.FlagFalse, trailing: 2,
			info: map[string]string{"trailing_bytes": "2"},
		}},
		{"legacy_v0.hex", 17, want{
			legacy: true, cookie: 0x0123456789ABCDEF, state: "playing", version: "142090",
			info: map[string]string{"protocol_version": "0", "beacon_port": "15809"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b := loadHex(t, tc.file)
			if len(b) != tc.size {
				t.Fatalf("vector is %d bytes, built as %d", len(b), tc.size)
			}
			resp, err := decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Legacy != tc.want.legacy || resp.Cookie != tc.want.cookie || resp.Trailing != tc.want.trailing {
				t.Errorf("legacy/cookie/trailing = %v/%#x/%d, want %v/%#x/%d", resp.Legacy, resp.Cookie, resp.Trailing,
					tc.want.legacy, tc.want.cookie, tc.want.trailing)
			}
			if err := answers(b, tc.want.cookie); err != nil {
				t.Errorf("Answers: %v", err)
			}
			checkResult(t, resp.Result(), tc.want)
		})
	}
}

func checkResult(t *testing.T, res *protocols.Result, w want) {
	t.Helper()
	if res.State != w.state || res.Version != w.version || res.Name != w.name || res.Modded != w.modded {
		t.Errorf("state/version/name/modded = %q/%q/%q/%v, want %q/%q/%q/%v",
			res.State, res.Version, res.Name, res.Modded, w.state, w.version, w.name, w.modded)
	}
	if !slices.Equal(res.States, []string{"offline", "idle", "loading", "playing"}) {
		t.Errorf("States = %q", res.States)
	}
	if !slices.Equal(res.SubStates, w.subStates) {
		t.Errorf("SubStates = %v, want %v", res.SubStates, w.subStates)
	}
	if res.Players.Known || res.MaxPlayers.Known || res.Bots.Known || res.Password != protocols.FlagUnknown {
		t.Errorf("reported counts/password the protocol does not carry: %+v", res)
	}
	info := map[string]string{}
	for _, kv := range res.Info {
		info[kv.Key] = kv.Value
	}
	for k, v := range w.info {
		if info[k] != v {
			t.Errorf("Info[%s] = %q, want %q", k, info[k], v)
		}
	}
}

func TestDecodeBadVectors(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    error
		mention string // the field or offset the error must name
	}{
		{"bad_terminator.hex", wire.ErrMalformed, "terminator at offset 29"},
		{"name_length_lies.hex", wire.ErrTruncated, "name length 200"},
		{"substates_lie.hex", wire.ErrTruncated, "255 sub-states"},
		{"short.hex", wire.ErrTruncated, "12-byte response"},
		{"bad_magic.hex", wire.ErrMalformed, "magic F6 D5"},
		{"gamedig_header_0102.hex", wire.ErrMalformed, "protocol version 2"},
		{"legacy_short.hex", wire.ErrTruncated, "pre-1.0"},
		{"erratum1_doc_substate_layout.hex", wire.ErrMalformed, "terminator"},
		{"erratum2_doc_name_offset.hex", wire.ErrTruncated, "name length 18437"},
		{"erratum3_doc_terminator_offset.hex", wire.ErrTruncated, "terminator at offset 31"},
		{"erratum4_poll_message_type.hex", wire.ErrMalformed, "message type 0"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, err := decode(loadHex(t, tc.file))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tc.want, tc.mention)
			}
		})
	}
}

func TestDecodeEdgeInputs(t *testing.T) {
	for _, b := range [][]byte{nil, {}, {0xD5}, {0xD5, 0xF6, 1}, {1}, {1, 0}} {
		if _, err := decode(b); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("Decode(% X) = %v, want ErrTruncated", b, err)
		}
	}
	// Every prefix of a valid response fails cleanly as truncated.
	full := loadHex(t, "playing_djwoodz.hex")
	for n := range len(full) {
		if _, err := decode(full[:n]); !errors.Is(err, wire.ErrTruncated) {
			t.Errorf("prefix %d: %v, want ErrTruncated", n, err)
		}
	}
}

func TestInvalidUTF8NameIsReplaced(t *testing.T) {
	b := loadHex(t, "trailing_bytes.hex")
	b[28] = 0xFF // the name "A" becomes an invalid byte
	resp, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Name != "\uFFFD" {
		t.Errorf("name = %q, want U+FFFD", resp.Name)
	}
}

func TestUnknownStateIsRawNumber(t *testing.T) {
	b := loadHex(t, "playing_djwoodz.hex")
	b[12] = 7
	resp, err := decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Result().State; got != "7" {
		t.Errorf("State = %q, want \"7\"", got)
	}
	b[12] = 0
	resp, _ = decode(b)
	if got := resp.Result().State; got != "offline" {
		t.Errorf("State = %q, want offline", got)
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

func TestAnswers(t *testing.T) {
	b := loadHex(t, "playing_djwoodz.hex")
	if err := answers(b, 0x0102030405060708); err != nil {
		t.Error(err)
	}
	if err := answers(b, 0x0102030405060709); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("other cookie: %v, want ErrMismatch", err)
	}
	if err := answers(b[:11], 0x0102030405060708); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("11 bytes: %v, want ErrTruncated", err)
	}
	if err := answers([]byte("garbage datagram"), 0); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("garbage: %v, want ErrMalformed", err)
	}
	legacy := loadHex(t, "legacy_v0.hex")
	if err := answers(legacy, 0x0123456789ABCDEF); err != nil {
		t.Error(err)
	}
	if err := answers(legacy[:9], 0x0123456789ABCDEF); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("legacy 9 bytes: %v, want ErrTruncated", err)
	}
	// A truncated body with an intact cookie is accepted, so decode can say what is wrong.
	if err := answers(b[:20], 0x0102030405060708); err != nil {
		t.Errorf("truncated body: %v", err)
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
		b := loadHex(t, "erratum4_poll_message_type.hex")
		if !slices.Equal(b, request(1)) {
			t.Fatalf("vector is not the poll for cookie 1")
		}
		if err := answers(b, 1); !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("Answers(poll) = %v, want ErrMalformed", err)
		}
	})
	t.Run("5_cookie_is_opaque", func(t *testing.T) {
		for _, c := range []uint64{0, 1, 0x8000000000000000, ^uint64(0), 0x0102030405060708} {
			b := loadHex(t, "playing_djwoodz.hex")
			copy(b[4:12], request(c)[4:12])
			resp, err := decode(b)
			if err != nil || resp.Cookie != c || answers(b, c) != nil {
				t.Errorf("cookie %#x: decoded %#x, %v", c, resp.Cookie, err)
			}
		}
	})
}
