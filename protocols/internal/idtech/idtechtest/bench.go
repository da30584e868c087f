package idtechtest

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchDecode measures decode plus result (building the Result) on each
// datagram file, one sub-benchmark per file.
func BenchDecode[T any](b *testing.B, decode func([]byte) (*T, error), result func(*T), files ...string) {
	for _, file := range files {
		b.Run(filepath.Base(file), func(b *testing.B) {
			data, err := os.ReadFile(file)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := decode(data)
				if err != nil {
					b.Fatal(err)
				}
				result(r)
			}
		})
	}
}
