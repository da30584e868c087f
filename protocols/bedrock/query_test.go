package bedrock

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const bdsID = "MCPE;§a§lDedicated §rServer;766;1.21.50;3;10;11939138312187839373;Bedrock level;Survival;1;19132;19133;"

// pingTime returns the time of a well-formed Unconnected Ping.
func pingTime(req []byte) (int64, bool) {
	if len(req) != pingLen || req[0] != idPing || !bytes.Equal(req[9:25], magic[:]) {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(req[1:])), true
}

// pongBytes builds an Unconnected Pong; length < 0 means the string's own.
func pongBytes(time int64, mg [16]byte, id string, length int) []byte {
	if length < 0 {
		length = len(id)
	}
	b := []byte{idPong}
	b = binary.BigEndian.AppendUint64(b, uint64(time))
	b = binary.BigEndian.AppendUint64(b, vecGUID)
	b = append(b, mg[:]...)
	b = binary.BigEndian.AppendUint16(b, uint16(length))
	return append(b, id...)
}

// echo answers every well-formed ping with a pong carrying id.
func echo(id string) prototest.Handler {
	return func(req []byte) [][]byte {
		t, ok := pingTime(req)
		if !ok {
			return nil
		}
		return [][]byte{pongBytes(t, magic, id, -1)}
	}
}

// A ping/pong gives the bds_full pong's result (TestVectors) in one info
// phase, one send; each query pings with its own time and client GUID.
func TestQuery(t *testing.T) {
	seen := make(chan []byte, 2)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		select {
		case seen <- req:
		default:
		}
		return echo(bdsID)(req)
	})
	q := prototest.MustNew(t, Protocol, protocols.Settings{Players: true, Rules: true})
	for range 2 {
		res, tr, err := prototest.QueryWithin(t, q, addr, 2*time.Second)
		if kv := res.InfoKV(); err != nil || res.Name != "Dedicated Server" || len(kv) != 13 || prototest.PhaseResults(tr) != "info:true" || tr.Attempts != 1 {
			t.Fatalf("%v, %+v, info %q, phases %s, %d sends", err, res, kv, prototest.PhaseResults(tr), tr.Attempts)
		}
	}
	// Both pings were well formed: echo answers no other, and each probe took one send.
	a, b := <-seen, <-seen
	if bytes.Equal(a[1:9], b[1:9]) || bytes.Equal(a[25:], b[25:]) {
		t.Errorf("same time or GUID twice:\n% x\n% x", a, b)
	}
}

// Strays before the pong (another ping's pong, a foreign magic, an open
// connection reply, junk) are skipped and noted; the pong is used.
func TestQuerySkipsStrays(t *testing.T) {
	other := magic
	other[15]++
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		tm, _ := pingTime(req)
		return [][]byte{
			pongBytes(tm+1, magic, "MCPE;stray;1;1;1;1;", -1),
			pongBytes(tm, other, "MCPE;foreign;1;1;1;1;", -1),
			{0x06, 0x00},
			{},
			pongBytes(tm, magic, bdsID, -1),
			pongBytes(tm, magic, bdsID, -1),
		}
	})
	res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "Dedicated Server" || prototest.Ignored(tr) != 4 {
		t.Errorf("%v, name %q, %d packets noted as ignored, want 4", err, res.Name, prototest.Ignored(tr))
	}
}

// A server that answers, never with our pong, fails by the deadline with why the
// last reply was skipped, not as a bare timeout, after re-sending; a pong to our
// ping that does not decode is the server's answer: it fails at once.
func TestQueryFailures(t *testing.T) {
	other := magic
	other[0] = 0xff
	for name, tc := range map[string]struct {
		reply    func(tm int64) []byte
		want     error
		attempts int
	}{
		"wrong time":    {func(tm int64) []byte { return pongBytes(tm^1, magic, bdsID, -1) }, wire.ErrMismatch, 2},
		"wrong magic":   {func(tm int64) []byte { return pongBytes(tm, other, bdsID, -1) }, wire.ErrMalformed, 2},
		"echoed ping":   {func(tm int64) []byte { return ping(tm, 1) }, wire.ErrMalformed, 2},
		"cut in header": {func(tm int64) []byte { return pongBytes(tm, magic, "", -1)[:20] }, wire.ErrTruncated, 1},
		"lying length":  {func(tm int64) []byte { return pongBytes(tm, magic, "MCPE;x;1;1;", 500) }, wire.ErrTruncated, 1},
		"too large":     {func(tm int64) []byte { return pongBytes(tm, magic, "MCPE;x;", 0xffff) }, wire.ErrTooLarge, 1},
		"no fields":     {func(tm int64) []byte { return pongBytes(tm, magic, "MCPE", -1) }, wire.ErrMalformed, 1},
		"empty string":  {func(tm int64) []byte { return pongBytes(tm, magic, "", -1) }, wire.ErrMalformed, 1},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr := prototest.UDP(t, func(req []byte) [][]byte {
				tm, _ := pingTime(req)
				return [][]byte{tc.reply(tm)}
			})
			d := 2 * time.Second // a broken pong must not wait for it
			if tc.attempts == 2 {
				d = 300 * time.Millisecond
			}
			_, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Retries: 1}, d)
			if !errors.Is(err, tc.want) || errors.Is(err, wire.ErrTimeout) || len(tr.Phases) != 1 || !errors.Is(tr.Phases[0].Err, tc.want) || tr.Attempts != tc.attempts {
				t.Errorf("err = %v, phases %+v, attempts %d; want %v after %d", err, tr.Phases, tr.Attempts, tc.want, tc.attempts)
			}
		})
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "bedrock", DefaultPort: 19132, Transport: "udp",
		Answer:   echo(bdsID),
		WantName: "Dedicated Server",
	})
}
