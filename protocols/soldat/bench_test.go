package soldat

import "testing"

func BenchmarkDecode(b *testing.B) {
	v := vec(b, "refreshx_ctf")
	b.ReportAllocs()
	for b.Loop() {
		rf, err := decodeRefresh(v)
		if err != nil {
			b.Fatal(err)
		}
		rf.result(true)
	}
}
