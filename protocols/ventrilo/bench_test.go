package ventrilo

import "testing"

func BenchmarkDecode(b *testing.B) {
	body := text(b, "status")
	d := frag(9, 0, 1, body, len(body))
	b.ReportAllocs()
	for b.Loop() {
		a := &assembly{id: 9}
		if _, err := a.add(d); err != nil {
			b.Fatal(err)
		}
		if _, err := result(a.text(), true); err != nil {
			b.Fatal(err)
		}
	}
}
