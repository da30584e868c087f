package discovery

import (
	"context"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/master"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func bigList(n int) *master.List {
	l := &master.List{Entries: make([]master.Entry, n)}
	for i := range l.Entries {
		l.Entries[i] = master.Entry{
			Addr: netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)}), 27015),
			Name: fmt.Sprintf("Server %d | 24/7 Dust", i), Map: "de_dust2", Game: "cstrike", Country: "DE",
			Players: protocols.Known(int64(i % 32)), Max: protocols.Known(32),
		}
	}
	return l
}

// BenchmarkSD100k: encoding the /sd answer of a 100,000-server source, once per
// refresh (target: under 100 ms).
func BenchmarkSD100k(b *testing.B) {
	sn := newSnapshot(&config.DiscoverySource{Module: "a2s"}, bigList(100000), time.Now())
	b.ReportAllocs()
	for b.Loop() {
		encodeSD("steam", "a2s", sn)
	}
}

// BenchmarkRefresh100k: one refresh of a 100,000-server Quake 3 master on
// loopback, decoding and indexing included (target: under 64 MiB allocated).
func BenchmarkRefresh100k(b *testing.B) {
	const n = 100000
	var datagrams [][]byte
	for i := 0; i < n; {
		d := []byte("\xff\xff\xff\xffgetserversResponse")
		for j := 0; j < 200 && i < n; i, j = i+1, j+1 {
			d = append(d, '\\', 10, byte(i>>16), byte(i>>8), byte(i), 0x69, 0x87)
		}
		datagrams = append(datagrams, d)
	}
	datagrams[len(datagrams)-1] = append(datagrams[len(datagrams)-1], "\\EOT\x00\x00\x00"...)
	addr := prototest.UDP(b, func([]byte) [][]byte { return datagrams })
	cfg := config.Discovery{"big": {Type: master.TypeQuake3, Address: addr.String(), MaxTargets: n}}
	if err := cfg.Compile(nil); err != nil {
		b.Fatal(err)
	}
	m := NewManager(nil)
	r := &running{name: "big", src: cfg["big"]}
	b.ReportAllocs()
	for b.Loop() {
		if err := m.refresh(context.Background(), r); err != nil {
			b.Fatal(err)
		}
	}
	if sn := r.list.Load(); len(sn.entries) != n {
		b.Fatalf("%d entries (datagrams lost on loopback?)", len(sn.entries))
	}
}
