package starmade

import "testing"

func BenchmarkDecode(b *testing.B) {
	v := vec(b, "status_default")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeAnswer(v); err != nil {
			b.Fatal(err)
		}
	}
}
