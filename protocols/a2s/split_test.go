package a2s

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam/steamtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// addAll feeds datagrams and returns the first completed message.
func addAll(t *testing.T, a *steam.Assembler, ds [][]byte) ([]byte, error) {
	t.Helper()
	var msg []byte
	for _, d := range ds {
		m, done, err := a.Add(d)
		if err != nil {
			return nil, err
		}
		if done && msg == nil {
			msg = m
		}
	}
	return msg, nil
}

func permutations(n int) (out [][]int) {
	if n == 1 {
		return [][]int{{0}}
	}
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			out = append(out, slices.Insert(slices.Clone(p), i, n-1))
		}
	}
	return out
}

func TestAssemblerLayouts(t *testing.T) {
	want := readHex(t, "split_message.hex")
	for _, tt := range []struct {
		name   string
		layout steam.Layout
	}{
		{"split_source", steam.LayoutSource},
		{"split_source_nosize", steam.LayoutSourceNoSize},
		{"split_goldsrc", steam.LayoutGoldSrc},
		{"split_bzip2", steam.LayoutSource},
		{"split_bzip2_nosize", steam.LayoutSourceNoSize},
	} {
		t.Run(tt.name, func(t *testing.T) {
			frags := steamtest.Frags(t, tt.name)
			if got := steam.DetectLayout(frags[0], binary.LittleEndian.Uint32(frags[0][4:])&0x80000000 != 0); got != tt.layout {
				t.Fatalf("detected %v, want %v", got, tt.layout)
			}
			for _, perm := range permutations(len(frags)) {
				var ds [][]byte
				for _, i := range perm {
					ds = append(ds, frags[i], frags[i]) // every fragment twice
				}
				for _, a := range []*steam.Assembler{{}, {Layout: tt.layout}} {
					msg, err := addAll(t, a, ds)
					if err != nil {
						t.Fatalf("order %v: %v", perm, err)
					}
					if !bytes.Equal(msg, want) {
						t.Fatalf("order %v: reassembled %d bytes, want %d", perm, len(msg), len(want))
					}
				}
			}
			// One fragment missing: never done, no error.
			var a steam.Assembler
			if msg, err := addAll(t, &a, frags[1:]); msg != nil || err != nil {
				t.Fatalf("without fragment 0: %v %v", msg, err)
			}
		})
	}
}

func TestAssemblerErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
	}{
		{"split_bzip2_badcrc", wire.ErrMalformed},
		{"split_bzip2_badsize", wire.ErrTooLarge},
		{"split_bzip2_huge", wire.ErrTooLarge},
		{"split_total_zero", wire.ErrMalformed},
		{"split_too_many", wire.ErrTooLarge},
		{"split_number_past_total", wire.ErrMalformed},
		{"split_total_changes", wire.ErrMalformed},
		{"split_not_a2s", wire.ErrMalformed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var a steam.Assembler
			a.Layout = steam.LayoutSource // some of these have no recognisable fragment 0
			if _, err := addAll(t, &a, steamtest.Frags(t, tt.name)); !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
		})
	}
}

func TestAssemblerDatagrams(t *testing.T) {
	frags := steamtest.Frags(t, "split_source")
	var a steam.Assembler
	for d, want := range map[string]error{"\xFF\xFF": wire.ErrTruncated, "\x00\x01\x02\x03\x04": wire.ErrMalformed, "\xFE\xFF\xFF\xFF\x01\x00\x00\x00": wire.ErrTruncated} {
		if _, _, err := a.Add([]byte(d)); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", d, err, want)
		}
	}
	// A complete datagram passes through while a split message is pending.
	if _, done, err := a.Add(frags[1]); done || err != nil {
		t.Fatal(done, err)
	}
	single := []byte{0xFF, 0xFF, 0xFF, 0xFF, 0x49, 1}
	if m, done, err := a.Add(single); !done || err != nil || !bytes.Equal(m, single) {
		t.Fatalf("single datagram: %v %v %v", m, done, err)
	}
	msg, err := addAll(t, &a, [][]byte{frags[0], frags[2], frags[3]})
	if err != nil || !bytes.Equal(msg, readHex(t, "split_message.hex")) {
		t.Fatalf("after the single datagram: %v", err)
	}
}

// setID returns a copy of a fragment with another message id.
func setID(d []byte, id uint32) []byte {
	d = bytes.Clone(d)
	binary.LittleEndian.PutUint32(d[4:], id)
	return d
}

func TestAssemblerInterleaved(t *testing.T) {
	frags := steamtest.Frags(t, "split_source")
	want := readHex(t, "split_message.hex")
	// The answer to a request (id 1, fragment 2 lost) and to its re-send (id 2)
	// interleave: the second completes.
	var a steam.Assembler
	ds := [][]byte{setID(frags[0], 1), setID(frags[0], 2), setID(frags[1], 1), setID(frags[1], 2),
		setID(frags[3], 1), setID(frags[2], 2), setID(frags[3], 2)}
	if msg, err := addAll(t, &a, ds); err != nil || !bytes.Equal(msg, want) {
		t.Fatalf("interleaved: %v", err)
	}
	// A third id evicts the oldest set: id 1's fragments are forgotten.
	a.Reset()
	if _, err := addAll(t, &a, [][]byte{setID(frags[0], 1), setID(frags[0], 2), setID(frags[0], 3)}); err != nil {
		t.Fatal(err)
	}
	if msg, err := addAll(t, &a, [][]byte{setID(frags[1], 2), setID(frags[2], 2), setID(frags[3], 2)}); err != nil || !bytes.Equal(msg, want) {
		t.Fatalf("kept set: %v", err)
	}
	if msg, err := addAll(t, &a, [][]byte{setID(frags[1], 1), setID(frags[2], 1), setID(frags[3], 1)}); msg != nil || err != nil {
		t.Fatal("evicted set completed")
	}
}

func TestAssemblerCaps(t *testing.T) {
	frags := steamtest.Frags(t, "split_source")
	t.Run("no fragment 0", func(t *testing.T) {
		var a steam.Assembler
		var err error
		for i := 0; i <= steam.MaxFragments && err == nil; i++ {
			_, _, err = a.Add(frags[1])
		}
		if !errors.Is(err, wire.ErrTooLarge) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		var a steam.Assembler
		big := make([]byte, 12+8000)
		copy(big, []byte{0xFE, 0xFF, 0xFF, 0xFF, 9, 0, 0, 0, steam.MaxFragments, 0, 0x40, 0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0x45})
		var err error
		for i := 0; i < steam.MaxFragments && err == nil; i++ {
			big[9] = byte(i)
			_, _, err = a.Add(bytes.Clone(big))
		}
		if !errors.Is(err, wire.ErrTooLarge) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("goldsrc 15 fragments", func(t *testing.T) {
		var a steam.Assembler
		var ds [][]byte
		msg := append([]byte{0xFF, 0xFF, 0xFF, 0xFF, 0x45, 15, 0}, bytes.Repeat([]byte("k\x00v\x00"), 15)...)
		for i := range 15 {
			part := msg[i*len(msg)/15 : (i+1)*len(msg)/15]
			ds = append(ds, append([]byte{0xFE, 0xFF, 0xFF, 0xFF, 7, 0, 0, 0, byte(i<<4 | 15)}, part...))
		}
		got, err := addAll(t, &a, ds)
		if err != nil || !bytes.Equal(got, msg) {
			t.Fatalf("%v %q", err, got)
		}
	})
}

func ExampleAssembler() {
	frag := func(n byte, payload string) []byte {
		return append([]byte{0xFE, 0xFF, 0xFF, 0xFF, 0x2A, 0, 0, 0, 2, n, 0xE0, 0x04}, payload...)
	}
	var a steam.Assembler
	for _, d := range [][]byte{frag(1, "\x00v\x00"), frag(0, "\xFF\xFF\xFF\xFF\x45\x01\x00k")} {
		if msg, done, err := a.Add(d); done && err == nil {
			r, _ := steam.DecodeRules(msg)
			fmt.Println(r.List)
		}
	}
	// Output: [{k v}]
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

func benchAssembler(b *testing.B, name string) {
	frags := steamtest.Frags(b, name)
	prototest.DecodeBench(b, nil, func([]byte) error {
		var a steam.Assembler
		for i := len(frags) - 1; i >= 0; i-- {
			if _, _, err := a.Add(frags[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

func BenchmarkAssembler(b *testing.B) { benchAssembler(b, "split_source") }

func BenchmarkAssemblerBzip2(b *testing.B) { benchAssembler(b, "split_bzip2") }
