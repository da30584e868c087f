package ventrilo

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// BenchmarkDecode reassembles the status reply from fragments of at most maxData
// bytes, as a server sends it, and decodes it.
func BenchmarkDecode(b *testing.B) {
	body := text(b, "status")
	n := (len(body) + maxData - 1) / maxData
	frags := make([][]byte, n)
	for i := range n {
		frags[i] = frag(9, i, n, body[i*maxData:min((i+1)*maxData, len(body))], len(body))
	}
	b.ReportAllocs()
	for b.Loop() {
		a := &assembly{id: 9}
		for _, d := range frags {
			if _, err := a.add(d); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := result(a.text(), true, wire.UTF8); err != nil {
			b.Fatal(err)
		}
	}
}
