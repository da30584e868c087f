package starmade

import (
	"slices"
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

// TestVectors decodes each answer in testdata/ as its .expected.json says: the
// Result's ProbeLine and info, or the error. The status reports connected
// players only (StarMade's AI ships are no players) and no bot count: Players
// is the count as sent, Bots unknown. The start time, Unix ms, is exported
// (gameserver_start_time_seconds).
func TestVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w struct {
		prototest.HexVector
		Line string
		Info []protocols.KV
	}) {
		res, err := decodeAnswer(b)
		if w.Refused(t, b, err) {
			return
		}
		prototest.CheckProbe(t, res, nil, nil, w.Line)
		if !slices.Equal(res.Info, w.Info) || !res.Started.Equal(time.UnixMilli(1_700_000_000_000)) || res.Uptime.Known {
			t.Errorf("info %v, started %v, uptime %+v", res.Info, res.Started, res.Uptime)
		}
		prototest.CheckUTF8(t, res)
	})
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
