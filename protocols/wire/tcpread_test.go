package wire

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// frameSize reads a test frame's header: its first byte is the whole frame's
// length, at least the 2-byte header and at most 16.
func frameSize(h []byte) (int, error) {
	n := int(h[0])
	if n < 2 || n > 16 {
		return 0, fmt.Errorf("%w: frame of %d bytes", ErrTooLarge, n)
	}
	return n, nil
}

func TestReadFrame(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      error
		msg      string
	}{
		{in: "\x05Hxyz+", want: "\x05Hxyz"},                                       // the frame, not what follows
		{in: "\x05", err: ErrTruncated, msg: "1 of 2 bytes of the packet header"}, // cut in the header
		{in: "\x05Hx", err: ErrTruncated, msg: "1 of 3 bytes of the packet body"}, // cut in the body
		{in: "\x40H", err: ErrTooLarge},                                           // capped before the body is read
		{in: "", err: ErrTruncated, msg: "0 of 2 bytes of the packet header"},
	} {
		var hdr [2]byte
		got, err := ReadFrame(strings.NewReader(tc.in), hdr[:], "packet", frameSize)
		if !errors.Is(err, tc.err) || (tc.err == nil && string(got) != tc.want) || !strings.Contains(fmt.Sprint(err), tc.msg) {
			t.Errorf("%q: %q, %v; want %q, %v (%q)", tc.in, got, err, tc.want, tc.err, tc.msg)
		}
	}
}

func TestReadFull(t *testing.T) {
	b := make([]byte, 4)
	if err := ReadFull(strings.NewReader("abcd"), b, "answer"); err != nil || string(b) != "abcd" {
		t.Errorf("%q, %v", b, err)
	}
	err := ReadFull(strings.NewReader("ab"), b, "answer")
	if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "2 of 4 bytes of the answer") {
		t.Errorf("cut: %v", err)
	}
	other := errors.New("socket error")
	if err := ReadFull(io.MultiReader(strings.NewReader("a"), errReader{other}), b, "answer"); err != other {
		t.Errorf("socket error: %v, want it as is", err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

func TestClosed(t *testing.T) {
	for _, e := range []error{io.EOF, io.ErrUnexpectedEOF} {
		if err := Closed(e, "line"); !errors.Is(err, ErrTruncated) || !strings.HasSuffix(err.Error(), "connection closed before the line") {
			t.Errorf("%v: %v", e, err)
		}
	}
	other := errors.New("reset")
	if err := Closed(other, "line"); err != other {
		t.Errorf("%v", err)
	}
}
