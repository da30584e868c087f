package ffow

import "testing"

func BenchmarkDecodeInfo(b *testing.B) {
	v := vec(b, "info")
	b.ReportAllocs()
	for b.Loop() {
		in, err := decodeInfo(v)
		if err != nil {
			b.Fatal(err)
		}
		in.result()
	}
}
