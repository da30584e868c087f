package nadeo

import "testing"

func BenchmarkDecodePlayers(b *testing.B) {
	v := vec(b, "players")
	b.ReportAllocs()
	for b.Loop() {
		n, err := decodeResponse(v)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := playerList(n); err != nil {
			b.Fatal(err)
		}
	}
}
