package minecraft

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fixtureExpected is the part of an .expected.json this package asserts.
type fixtureExpected struct {
	Fixtures []string `json:"fixtures"`
	Expected struct {
		FrameLength int                `json:"frame_length"`
		PacketID    int32              `json:"packet_id"`
		JSONLength  int                `json:"json_length"`
		Payload     int64              `json:"payload_int64"`
		Version     int32              `json:"protocol_version"`
		Address     string             `json:"server_address"`
		Port        uint16             `json:"server_port"`
		Next        int32              `json:"next_state"`
		MOTD        string             `json:"motd"`
		Online      int64              `json:"online"`
		Max         int64              `json:"max"`
		VersionName string             `json:"version_name"`
		Protocol    int64              `json:"protocol"`
		JSON        *fixtureStatusJSON `json:"json"`
	} `json:"expected"`
}

// fixtureStatusJSON is the decoded JSON as the fixture's expectation spells it.
type fixtureStatusJSON struct {
	Description *string `json:"description"`
	Players     struct {
		Max    int64 `json:"max"`
		Online int64 `json:"online"`
	} `json:"players"`
	Version struct {
		Name     string `json:"name"`
		Protocol int64  `json:"protocol"`
	} `json:"version"`
}

// TestFixtures checks every capture in ../shared/fixtures/minecraft, read in place.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(prototest.FixtureDir(t, "minecraft"), "*.expected.json"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".expected.json")
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[fixtureExpected](t, f)
			if len(e.Fixtures) != 1 {
				t.Fatalf("%s: %d fixtures", f, len(e.Fixtures))
			}
			b := prototest.Fixture(t, "minecraft", e.Fixtures[0])
			x := e.Expected
			switch {
			case strings.HasPrefix(name, "mcstatus_slp_status_response_"):
				fixtureStatus(t, b, x.FrameLength, x.JSONLength, x.JSON)
			case name == "mcstatus_slp_pong_response":
				id, data, err := readPacket(bytes.NewReader(b), maxPong)
				if err != nil || id != x.PacketID || len(data)+1 != x.FrameLength || b[0] != byte(x.FrameLength) {
					t.Fatalf("pong frame: id %d, %d bytes, %v", id, len(data), err)
				}
				if err := decodePong(id, data, x.Payload); err != nil {
					t.Error(err)
				}
			case strings.HasPrefix(name, "mcstatus_slp_handshake_request_"):
				// An encoder vector: build it, and read it back as a server would.
				if got := handshake(x.Address, x.Port, x.Version); !bytes.Equal(got, b) {
					t.Errorf("Handshake = % x, want % x", got, b)
				}
				h, err := readHandshake(bytes.NewReader(b))
				if err != nil || h != (sentHandshake{x.Version, x.Address, x.Port, x.Next}) || int(b[0]) != x.FrameLength {
					t.Errorf("handshake %+v, %v", h, err)
				}
			case name == "mcstatus_slp_status_request":
				if string(b) != statusRequest || x.FrameLength != 1 || x.PacketID != 0 {
					t.Errorf("statusRequest = % x, fixture % x", statusRequest, b)
				}
			case strings.HasPrefix(name, "mcstatus_legacy_kick_payload_"):
				fixtureLegacy(t, name, b, x.MOTD, x.Online, x.Max, x.VersionName, x.Protocol)
			default:
				t.Fatalf("fixture %s is not covered", name)
			}
		})
	}
}

func fixtureStatus(t *testing.T, b []byte, frameLen, jsonLen int, want *fixtureStatusJSON) {
	t.Helper()
	if want == nil {
		t.Fatal("no json in the expectation")
	}
	n, err := readVarInt(bytes.NewReader(b), "frame length")
	if err != nil || int(n) != frameLen || len(b) != frameLen+1 || b[2] != byte(jsonLen) {
		t.Errorf("frame length %d (%v), file %d bytes; want frame %d json %d", n, err, len(b), frameLen, jsonLen)
	}
	r := bufio.NewReader(bytes.NewReader(b))
	st, err := readResponse(r)
	prototest.NoError(t, err)
	res := st.Result(true)
	wantName := ""
	if want.Description != nil {
		wantName = *want.Description
	}
	if res.Name != wantName || res.Version != want.Version.Name || st.Protocol != want.Version.Protocol || !st.HasProtocol ||
		res.Players != protocols.Known(want.Players.Online) || res.MaxPlayers != protocols.Known(want.Players.Max) {
		t.Errorf("result %+v (protocol %d), want %+v", res, st.Protocol, want)
	}
	if res.Game != "Minecraft" || len(res.PlayerList) != 0 || res.PlayerList == nil || len(st.Warnings) != 0 || st.Trailing != 0 {
		t.Errorf("game %q players %v warnings %q trailing %d", res.Game, res.PlayerList, st.Warnings, st.Trailing)
	}
	if rest, _ := r.Peek(1); len(rest) != 0 {
		t.Error("bytes left after the frame")
	}
}

// fixtureLegacy decodes a kick payload (the fixture has no 0xFF header), then
// the same payload framed as the server sends it. The b1.8 expectation's
// version "<1.4" and protocol -1 are mcstatus placeholders: the beta format
// reports neither, so the decoder leaves them unset.
func fixtureLegacy(t *testing.T, name string, b []byte, motd string, online, max int64, version string, protocol int64) {
	t.Helper()
	payload, err := decodeLegacyKick(b)
	framed, err2 := readResponse(bufio.NewReader(bytes.NewReader(append([]byte{0xFF, byte(len(b) / 2 >> 8), byte(len(b) / 2)}, b...))))
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	for _, st := range []status{payload, framed} {
		if st.MOTD != motd || st.Online != protocols.Known(online) || st.Max != protocols.Known(max) {
			t.Errorf("%+v, want %q %d/%d", st, motd, online, max)
		}
		if strings.HasSuffix(name, "_b1.8") {
			if st.Format != formatLegacyBeta || st.VersionName != "" || st.HasProtocol || version != "<1.4" || protocol != -1 {
				t.Errorf("beta: %+v", st)
			}
			continue
		}
		if st.Format != formatLegacy14 || st.VersionName != version || !st.HasProtocol || st.Protocol != protocol {
			t.Errorf("1.4+: %+v, want %q %d", st, version, protocol)
		}
	}
}
