package steamtest

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/steam"
)

// Reassemble checks a split fixture: each fragment's header against its
// "fragments" entry (id, total, number; payload_length in the GoldSrc layout),
// fragment 0's layout as detected; then the set as Orders does, the message
// reassembled_length long. It returns the message.
func Reassemble(t testing.TB, f Fixture) []byte {
	t.Helper()
	name, _ := f.JSON["split_layout"].(string)
	layout := map[string]steam.Layout{"source": steam.LayoutSource, "source_without_size_field": steam.LayoutSourceNoSize, "goldsrc": steam.LayoutGoldSrc}[name]
	if layout == steam.LayoutAuto {
		t.Fatalf("unknown split_layout %q", name)
	}
	frags := f.JSON["fragments"].([]any)
	for i, d := range f.Datagrams {
		id := binary.LittleEndian.Uint32(d[4:])
		got := map[string]int64{"id": int64(id), "total": int64(d[8]), "number": int64(d[9])}
		if layout == steam.LayoutGoldSrc {
			got = map[string]int64{"id": int64(id), "total": int64(d[8] & 0x0F), "number": int64(d[8] >> 4), "payload_length": int64(len(d) - 9)}
		}
		want := frags[i].(map[string]any)
		for k, g := range got {
			if w := Int(t, want[k]); g != w {
				t.Errorf("fragment %d: %s = %d, want %d", i, k, g, w)
			}
		}
		if got := steam.DetectLayout(d, id&0x80000000 != 0); i == 0 && got != layout {
			t.Errorf("fragment 0 detected as %v, want %v", got, layout)
		}
	}
	msg := Orders(t, f.Datagrams, layout)
	if got, want := int64(len(msg)), Int(t, f.JSON["reassembled_length"]); got != want {
		t.Fatalf("reassembled %d bytes, want %d", got, want)
	}
	return msg
}

// Orders reassembles frags in arrival order (the layout detected and forced:
// complete with the last fragment only, one message), backwards with every
// fragment twice (the same message) and without fragment 0 (never complete),
// and returns the message.
func Orders(t testing.TB, frags [][]byte, layout steam.Layout) []byte {
	t.Helper()
	add := func(asm *steam.Assembler, order []int, last int) []byte {
		var msg []byte
		for n, i := range order {
			m, done, err := asm.Add(frags[i])
			if err != nil {
				t.Fatalf("fragment %d: %v", i, err)
			}
			if last >= 0 && done != (n == last) {
				t.Fatalf("fragment %d: done = %v", i, done)
			}
			if done && msg == nil {
				msg = m
			}
		}
		return msg
	}
	var fwd, back []int
	for i := range frags {
		fwd = append(fwd, i)
		back = append([]int{i, i}, back...)
	}
	msg := add(&steam.Assembler{}, fwd, len(fwd)-1)
	for _, l := range []steam.Layout{steam.LayoutAuto, layout} {
		if got := add(&steam.Assembler{Layout: l}, fwd, len(fwd)-1); !bytes.Equal(got, msg) {
			t.Fatalf("layout %v: another message", l)
		}
		if got := add(&steam.Assembler{Layout: l}, back, -1); !bytes.Equal(got, msg) {
			t.Fatalf("layout %v: backwards, duplicated fragments give another message", l)
		}
	}
	if got := add(&steam.Assembler{}, fwd[1:], -1); got != nil {
		t.Fatal("complete without fragment 0")
	}
	return msg
}

// CheckKV asserts the debug key/values have unique keys and are valid UTF-8.
func CheckKV(t testing.TB, kv []protocols.KV) {
	t.Helper()
	seen := map[string]bool{}
	for _, x := range kv {
		if seen[x.Key] {
			t.Errorf("duplicate Info key %q", x.Key)
		}
		seen[x.Key] = true
		if !utf8.ValidString(x.Key) || !utf8.ValidString(x.Value) {
			t.Errorf("Info %q=%q is not valid UTF-8", x.Key, x.Value)
		}
	}
}
