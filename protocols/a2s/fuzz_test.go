package a2s

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seeds returns every datagram of testdata/ and, when present, of the shared
// fixtures, grouped by message (split sets together).
func seeds(f *testing.F) [][][]byte {
	var out [][][]byte
	hexes, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	for _, h := range hexes {
		switch key, frag, split := strings.Cut(filepath.Base(h), ".frag"); {
		case !split:
			out = append(out, [][]byte{readHex(f, filepath.Base(h))})
		case strings.HasPrefix(frag, "0."):
			out = append(out, steamtest.Frags(f, key))
		}
	}
	if s := prototest.SharedDir(); s != "" {
		for _, dir := range []string{"a2s", "a2s/constructed", "goldsrc"} {
			d := filepath.Join(s, "fixtures", dir)
			if _, err := os.Stat(d); err != nil {
				continue
			}
			for _, fx := range steamtest.Fixtures(f, d) {
				out = append(out, fx.Datagrams)
			}
		}
	}
	return out
}

// datagrams is every seed datagram, one by one.
func datagrams(f *testing.F) [][]byte { return slices.Concat(seeds(f)...) }

func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzResults(f, datagrams(f), func(t *testing.T, b []byte) *protocols.Result {
		in, err := steam.DecodeInfo(b)
		if err != nil {
			return nil
		}
		r := in.Result()
		checkKV(t, r.InfoKV())
		return r
	})
}

func FuzzDecodePlayers(f *testing.F) {
	for _, d := range datagrams(f) {
		f.Add(d, false)
		f.Add(d, true)
	}
	f.Fuzz(func(t *testing.T, b []byte, ship bool) {
		p, err := steam.DecodePlayers(b, ship)
		if err != nil {
			return
		}
		if len(p.List) > int(p.Count) {
			t.Fatalf("%d players, count %d", len(p.List), p.Count)
		}
		for _, pl := range p.Result(0) {
			if steam.Text(pl.Name) != pl.Name || (pl.DurationKnown && !(pl.Duration >= 0)) {
				t.Fatalf("bad player %+v", pl)
			}
		}
	})
}

func FuzzDecodeRules(f *testing.F) {
	for _, d := range datagrams(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := steam.DecodeRules(b)
		if err != nil {
			return
		}
		if len(r.List) > int(r.Count) || len(r.List) > steam.MaxRules {
			t.Fatalf("%d rules, count %d", len(r.List), r.Count)
		}
		for _, kv := range r.Result() { // rules may repeat keys: only UTF-8 matters
			if steam.Text(kv.Key) != kv.Key || steam.Text(kv.Value) != kv.Value {
				t.Fatalf("invalid UTF-8 in %q=%q", kv.Key, kv.Value)
			}
		}
	})
}

// packDatagrams frames datagrams as (uint16 length, bytes)... for the fuzzer.
func packDatagrams(ds [][]byte) []byte {
	var out []byte
	for _, d := range ds {
		out = binary.LittleEndian.AppendUint16(out, uint16(len(d)))
		out = append(out, d...)
	}
	return out
}

func unpackDatagrams(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 2 {
		n := int(binary.LittleEndian.Uint16(b))
		b = b[2:]
		n = min(n, len(b))
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func FuzzAssembler(f *testing.F) {
	for _, set := range seeds(f) {
		f.Add(packDatagrams(set), uint8(0))
		rev := make([][]byte, 0, 2*len(set))
		for i := len(set) - 1; i >= 0; i-- {
			rev = append(rev, set[i], set[i])
		}
		f.Add(packDatagrams(rev), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, layout uint8) {
		a := steam.Assembler{Layout: steam.Layout(layout % 4)}
		for _, d := range unpackDatagrams(b) {
			msg, done, err := a.Add(d)
			if err != nil || !done {
				continue
			}
			if len(msg) < 4 || !bytes.HasPrefix(msg, []byte{0xFF, 0xFF, 0xFF, 0xFF}) || len(msg) > MaxDecompressed+steam.MaxSplitBytes {
				t.Fatalf("bad message of %d bytes", len(msg))
			}
			if in, err := steam.DecodeInfo(msg); err == nil {
				checkKV(t, in.Result().Info)
			}
			steam.DecodePlayers(msg, true)
			steam.DecodeRules(msg)
		}
	})
}
