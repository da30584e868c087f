package ventrilo

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is a Ventrilo status server: it decrypts the request and, for command 2
// with the right password, answers body in packets of at most size bytes, in
// the order order gives (nil: in order). A wrong password gets no answer, as
// the server keeps silent.
type fake struct {
	body     []byte
	password string
	size     int
	order    []int
	stray    bool // a datagram for another id goes first
}

func (f *fake) handle(req []byte) [][]byte {
	if len(req) < headerLen {
		return nil
	}
	h, data := decode(req)
	if h.Cmd != cmdDetailed || string(bytes.TrimRight(data, "\x00")) != f.password || h.CRC != crc16(data) {
		return nil
	}
	size := f.size
	if size == 0 {
		size = 492
	}
	var parts [][]byte
	for off := 0; off < len(f.body); off += size {
		parts = append(parts, f.body[off:min(off+size, len(f.body))])
	}
	var out [][]byte
	if f.stray {
		out = append(out, frag(h.ID+1, 0, 1, []byte("NAME: other\n"), 12))
	}
	order := f.order
	if order == nil {
		for i := range parts {
			order = append(order, i)
		}
	}
	for _, i := range order {
		out = append(out, frag(h.ID, i, len(parts), parts[i], len(f.body)))
	}
	return out
}

func TestQuery(t *testing.T) {
	for _, f := range []*fake{
		{body: text(t, "status")},
		{body: text(t, "status"), size: 100, order: []int{3, 1, 6, 0, 5, 2, 4}, stray: true},
	} {
		res, _ := prototest.QueryOK(t, Protocol, prototest.UDP(t, f.handle), prototest.Settings(true, ""), 2*time.Second)
		if res.Name != "Guild Hall, EU" || res.Players != protocols.Known(3) || len(res.PlayerList) != 3 || res.PlayerList[1].Name != "Zoé" {
			t.Errorf("size %d: %+v", f.size, res)
		}
		prototest.CheckBots(t, res, 3, prototest.Unknown, true)
	}
}

func TestQueryPassword(t *testing.T) {
	f := &fake{body: text(t, "status_generic"), password: "statuspw"}
	addr := prototest.UDP(t, f.handle)
	res, tr, err := prototest.QueryNew(t, Protocol, addr, prototest.Settings(false, "password: statuspw\n"), 2*time.Second)
	if err != nil || res.Name != "Plain" {
		t.Fatalf("%v %+v", err, res)
	}
	// The trace keeps the request with its password taken out (the cipher's
	// keys are public, so the request as sent would give it away).
	sent := 0
	for _, p := range tr.Packets {
		if p.Dir != wire.Sent {
			continue
		}
		sent++
		if h, data := decode(p.Data); bytes.Contains(data, []byte("statuspw")) || h.CRC != crc16(make([]byte, 16)) {
			t.Errorf("the trace holds the password: % x", p.Data)
		}
	}
	if sent == 0 {
		t.Error("no request in the trace")
	}
	// Without it the server keeps silent: a timeout.
	if _, _, err := prototest.QueryNew(t, Protocol, addr, prototest.Settings(false, ""), 300*time.Millisecond); !errors.Is(err, wire.ErrTimeout) {
		t.Errorf("no password: %v", err)
	}
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, prototest.Settings(false, "password: hunter2\n")), nil, nil, "hunter2")
}

func TestQueryFailures(t *testing.T) {
	prototest.ReplyFailures(t, Protocol, nil, prototest.Settings(false, ""),
		// One packet of two lost: the deadline ends the wait, saying so.
		prototest.ReplyFailure{Name: "lost packet", Handler: (&fake{body: text(t, "status"), size: 400, order: []int{0}}).handle, D: 300 * time.Millisecond, Want: wire.ErrTimeout},
		prototest.ReplyFailure{Name: "error line", Handler: (&fake{body: text(t, "err_error")}).handle, Want: wire.ErrServer},
		prototest.ReplyFailure{Name: "lying headers", Want: wire.ErrTooLarge, Handler: func(req []byte) [][]byte {
			h, _ := decode(req)
			return [][]byte{frag(h.ID, 0, 40, []byte("NAME: x\n"), 8)}
		}},
		// Strays only: skipped until the deadline.
		prototest.ReplyFailure{Name: "strays", D: 300 * time.Millisecond, Want: wire.ErrTimeout, Handler: func([]byte) [][]byte {
			return [][]byte{[]byte("short"), frag(1, 0, 1, []byte("NAME: x\n"), 8)}
		}},
	)
}

func TestQuerierContract(t *testing.T) {
	f := &fake{body: text(t, "status")}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "ventrilo", DefaultPort: 3784, Transport: "udp",
		Answer: f.handle, WantName: "Guild Hall, EU",
	})
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"password: sixteen-bytes-xx": "ventrilo password: longer than 15 bytes",
		"encoding: koi8-r":           `ventrilo options: unknown encoding "koi8-r"`,
	})
}
