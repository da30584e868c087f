package starmade

import (
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vec(t testing.TB, name string) []byte { return prototest.HexFile(t, name+".hex") }

// decodeAnswer decodes a whole answer as the querier reads it from the stream.
func decodeAnswer(b []byte) (*protocols.Result, error) {
	if len(b) < headerLen {
		return nil, wire.ErrTruncated
	}
	n, err := bodyLen(b[:headerLen])
	if err != nil {
		return nil, err
	}
	if len(b)-headerLen < n {
		return nil, wire.ErrTruncated
	}
	ps, err := decodeBody(b[headerLen : headerLen+n])
	if err != nil {
		return nil, err
	}
	return result(ps)
}

func TestRequest(t *testing.T) {
	// qstat's send_starmade_request_packet.
	want, _ := prototest.ParseHex("00000009 2a ffff 01 6f 00000000")
	if string(request) != string(want) {
		t.Errorf("request % x", request)
	}
}

// TestDecode: the status reports connected players only (StarMade's AI ships
// are no players) and no bot count: Players is the count as sent, Bots unknown.
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		file, name, version string
		players, max        int64
		info                int
	}{
		{"status_default", "StarMade Testers", "0.199", 3, 32, 7},
		{"status_utf8", "Звёздная база", "0.199", 3, 32, 8},
	} {
		res, err := decodeAnswer(vec(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if res.Name != c.name || res.Version != c.version || res.Players != protocols.Known(c.players) || res.MaxPlayers != protocols.Known(c.max) || len(res.Info) != c.info || res.Bots.Known {
			t.Errorf("%s: %+v", c.file, res)
		}
		if res.Info[4] != (protocols.KV{Key: "start_time_ms", Value: "1700000000000"}) || res.Info[3].Value != "A test universe" {
			t.Errorf("%s: info %v", c.file, res.Info)
		}
		// the start time, Unix ms, is exported (gameserver_start_time_seconds)
		if !res.Started.Equal(time.UnixMilli(1_700_000_000_000)) || res.Uptime.Known {
			t.Errorf("%s: started %v, uptime %+v", c.file, res.Started, res.Uptime)
		}
		prototest.CheckUTF8(t, res)
	}
}

func TestDecodeErrors(t *testing.T) {
	for file, want := range map[string]string{
		"err_count_lies":    "truncated",
		"err_type_unknown":  "malformed",
		"err_wrong_types":   "malformed",
		"err_too_many":      "too_large",
		"err_other_command": "mismatch",
		"err_packet_type":   "malformed",
		"err_string_cut":    "truncated",
		"err_too_few":       "malformed",
	} {
		if _, err := decodeAnswer(vec(t, file)); wire.Reason(err) != want {
			t.Errorf("%s: %v, want %s", file, err, want)
		}
	}
	for n, want := range map[int32]string{0: "malformed", 8: "malformed", -1: "malformed", maxBody + 1: "too_large"} {
		hdr := []byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n), 0, 0, 0, 0, 0, 0, 0, 0}
		if _, err := bodyLen(hdr); wire.Reason(err) != want {
			t.Errorf("length %d: %v, want %s", n, err, want)
		}
	}
}

// TestStartTime: a start time no running server can mean is left out.
func TestStartTime(t *testing.T) {
	for ms, want := range map[float64]time.Time{
		1_700_000_000_000: time.UnixMilli(1_700_000_000_000),
		0:                 {},
		-1:                {},
		946_684_799_999:   {}, // before 2000
		4_102_444_800_000: {}, // 2100
		1e300:             {},
	} {
		if got := startTime(ms); !got.Equal(want) {
			t.Errorf("startTime(%v) = %v, want %v", ms, got, want)
		}
	}
}

// FuzzDecode: no answer panics the decoder and every error names one reason
// (FuzzResults checks the counts and strings of a result).
func FuzzDecode(f *testing.F) {
	prototest.FuzzResults(f, prototest.HexFiles(f), func(t *testing.T, b []byte) *protocols.Result {
		res, err := decodeAnswer(b)
		if err != nil {
			prototest.CheckReason(t, err)
		}
		return res
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, vec(b, "status_default"), func(v []byte) error { _, err := decodeAnswer(v); return err })
}
