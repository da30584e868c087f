package master

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// scumList builds a master's answer: count announced, then one record per port
// (192.0.2.1 at each), as opengsq and GameQ lay a record out.
func scumList(count int, ports ...uint16) []byte {
	b := binary.LittleEndian.AppendUint16(nil, uint16(count))
	for _, p := range ports {
		var r [scumRecord]byte
		copy(r[0:4], []byte{1, 2, 0, 192})
		binary.LittleEndian.PutUint16(r[4:6], p)
		copy(r[6:], "server")
		r[107], r[108] = 1, 10
		b = append(b, r[:]...)
	}
	return b
}

func TestDecodeSCUMStream(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   []byte
		max    int
		want   int
		reason string
	}{
		{"as announced", scumList(2, 7779, 7781), 10, 2, ""},
		{"ends early after a server", scumList(3, 7779, 7781), 10, 2, ""},
		{"more than announced", scumList(1, 7779, 7781), 10, 1, ""},
		{"none", scumList(0), 10, 0, ""},
		{"capped", scumList(3, 7779, 7781, 7783), 2, 2, ""},
		{"no count", []byte{3}, 10, 0, "truncated"},
		{"cut record", scumList(2, 7779)[:100], 10, 0, "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCollector(tc.max)
			err := decodeSCUMStream(bytes.NewReader(tc.body), c)
			if wire.Reason(err) != tc.reason && (err != nil || tc.reason != "") {
				t.Fatalf("err %v, want reason %q", err, tc.reason)
			}
			if n := len(c.done(nil).Entries); err == nil && n != tc.want {
				t.Fatalf("%d entries, want %d", n, tc.want)
			}
		})
	}
}

// scumMaster is a fake master: the request, then body.
func scumMaster(t *testing.T, body []byte, got chan<- []byte) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		req := make([]byte, len(scumRequest))
		if _, err := io.ReadFull(c, req); err != nil {
			return
		}
		if got != nil {
			got <- req
		}
		if bytes.Equal(req, scumRequest) {
			c.Write(body)
		}
	})
}

func TestSCUMList(t *testing.T) {
	got := make(chan []byte, 1)
	addr := scumMaster(t, prototest.VecFile(t, "preset_scum"), got)
	l, err := list(t, Source{Type: TypeSCUM, Address: addr.String()}, 5*time.Second)
	prototest.NoError(t, err)
	if len(l.Entries) != 2 || l.Skipped != 1 || l.Entries[0].Addr != netip.MustParseAddrPort("192.0.2.110:7044") {
		t.Fatalf("%+v", l)
	}
	if req := <-got; !bytes.Equal(req, []byte{4, 3, 0, 0}) {
		t.Errorf("request % x", req)
	}
}

// TestSCUMMasters: the next master is asked when one fails, each within its
// share of the time.
func TestSCUMMasters(t *testing.T) {
	closed := prototest.ClosedTCPPort(t)
	good := scumMaster(t, scumList(1, 7779), nil)
	l := &scum{max: 10}
	for _, a := range []string{closed.String(), good.String()} {
		m, err := newUDPMaster(Source{Type: TypeSCUM, Address: a}, "", 0)
		prototest.NoError(t, err)
		l.masters = append(l.masters, m)
	}
	tr := wire.NewTrace()
	got, err := l.List(prototest.Context(t, 5*time.Second), tr)
	if err != nil || len(got.Entries) != 1 {
		t.Fatalf("%v %+v", err, got)
	}
	if !prototest.Logged(tr, "trying "+good.String()) {
		t.Errorf("no log of the move to the second master: %+v", tr.Entries)
	}
	// Every master down: the last one's reason.
	l.masters = l.masters[:1]
	if _, err := l.List(prototest.Context(t, 5*time.Second), wire.NewTrace()); !errors.Is(err, wire.ErrRefused) {
		t.Errorf("err %v, want refused", err)
	}
}

func TestSCUMRejects(t *testing.T) {
	refused(t, []refusal{
		{Source{Type: TypeSCUM, URL: "http://127.0.0.1/"}, "takes an address"},
		{Source{Type: TypeSCUM, Query: "x"}, "takes no query"},
		{Source{Type: TypeSCUM, Address: "nope"}, "address"},
		{Source{Type: TypeRageMP, Query: "x"}, "takes no query"},
		{Source{Type: TypeRageMP, URL: "http://127.0.0.1/", Fields: Fields{Address: "id"}}, "fields are for type"},
	})
	if l, err := New(Source{Type: TypeSCUM}); err != nil || len(l.(*scum).masters) != len(scumMasters) {
		t.Errorf("default masters: %v", err)
	}
}
