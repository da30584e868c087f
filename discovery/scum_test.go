package discovery

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestBuiltinSCUM: module scum's built-in source is a TCP master, not a URL: it
// starts on the first probe at the address given, and finds a server by its
// query port (the game port + 2) as the master lists it.
func TestBuiltinSCUM(t *testing.T) {
	rec := make([]byte, 127) // one record, the layout of opengsq's and GameQ's readers
	copy(rec[0:4], []byte{110, 2, 0, 192})
	binary.LittleEndian.PutUint16(rec[4:6], 7044)
	copy(rec[6:], "SCUM Island")
	rec[107], rec[108] = 37, 64
	body := append([]byte{1, 0}, rec...)
	master := prototest.TCP(t, func(c net.Conn) {
		req := make([]byte, 4)
		if _, err := io.ReadFull(c, req); err == nil && bytes.Equal(req, []byte{4, 3, 0, 0}) {
			c.Write(body)
		}
	})
	m := builtinManager(t, master.String(), 0)
	m.Apply(config.Discovery{})
	if err := m.Await(prototest.Context(t, 10*time.Second), "scum"); err != nil {
		t.Fatal(err)
	}
	e, listed, known := m.Lookup("scum", netip.MustParseAddrPort("192.0.2.110:7044"), "")
	if !known || !listed || e.Name != "SCUM Island" || e.Players.Value != 37 || e.Max.Value != 64 {
		t.Fatalf("lookup: %+v listed %v known %v", e, listed, known)
	}
}
