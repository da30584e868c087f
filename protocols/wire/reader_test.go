package wire

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	b := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 'a', 'b', 0, 0x00, 0x00, 0x80, 0x3f, 'x', 'y'}
	r := NewReader(b)
	u8, u16, u16be, name, f := r.Uint8("u8"), r.Uint16LE("u16"), r.Uint16BE("u16be"), string(r.CString("name")), r.Float32LE("f")
	p, ok := r.Until('y')
	if got := fmt.Sprintf("%d %#x %#x %s %v %s %v", u8, u16, u16be, name, f, p, ok); got != "1 0x302 0x405 ab 1 x true" {
		t.Errorf("Uint8, Uint16LE, Uint16BE, CString, Float32LE, Until = %s", got)
	}
	if r.Len() != 0 || r.Err() != nil {
		t.Fatalf("Len %d Err %v", r.Len(), r.Err())
	}
	// Past the end: a sticky ErrTruncated naming the field and offset.
	if v := r.Uint32LE("players"); v != 0 {
		t.Errorf("read past end = %d", v)
	}
	err := r.Err()
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "players at offset 14") {
		t.Errorf("err = %v", err)
	}
	r.Uint8("later")
	if r.Err() != err {
		t.Error("the first error must stick")
	}
}

// A CString without its NUL and a lying length fail, allocating nothing.
func TestReaderShort(t *testing.T) {
	r := NewReader([]byte("abc"))
	if s := r.CString("map"); s != nil || !errors.Is(r.Err(), ErrTruncated) {
		t.Errorf("CString = %q, %v", s, r.Err())
	}
	for _, n := range []int{math.MaxInt32, -1} {
		r = NewReader(make([]byte, 8))
		if p := r.Bytes(n, "blob"); p != nil || !errors.Is(r.Err(), ErrTruncated) {
			t.Errorf("Bytes(%d) = %v", n, r.Err())
		}
	}
}

func TestReason(t *testing.T) {
	for _, r := range reasons {
		wrapped := errors.Join(errors.New("context"), r)
		if got := Reason(wrapped); got != r.Error() {
			t.Errorf("Reason(%v) = %q", wrapped, got)
		}
	}
	if Reason(nil) != "" || Reason(errors.New("x")) != "other" {
		t.Error("nil must be \"\" and unknown errors \"other\"")
	}
}
