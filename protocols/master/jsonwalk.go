package master

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The JSON lists are walked by a scanner of their own, not with
// encoding/json's Decoder.Token: Token keeps a stack entry per open bracket,
// so a body of brackets ahead of the list cost tens of bytes of heap per byte
// received. The walker counts depth in an integer, holds at most one element
// (maxValue bytes), scans strings and padding in bulk, and hands each element
// to json.Unmarshal, so one bad element costs that element, not the list.

// maxDepth is encoding/json's own nesting limit (its Decode and Unmarshal
// refuse deeper values): a value deeper than that on the way to the list
// fails it, an element that deep is skipped.
const maxDepth = 10000

// maxValue bounds one server's entry (and any one key on the way to the list):
// an element longer than that is skipped without being held. (A variable:
// tests shrink it to show what memory is proportional to.)
var maxValue = 1 << 20

// spaces is a block of padding, skipped at once (next).
var spaces = bytes.Repeat([]byte{' '}, 64)

// readBuffer is the walker's read buffer.
const readBuffer = 32 << 10

// walker reads one JSON document.
type walker struct {
	r   *bufio.Reader
	off int64 // bytes read
	// buf holds the element (or key) being read, whitespace between tokens
	// cut; keep says whether to fill it, reason why an element is skipped.
	buf    []byte
	keep   bool
	reason string
}

// eachElement walks the JSON document in r to the array at path (keys of
// nested objects; none: the document is the array) and calls each with every
// element's text until each says stop. An element longer than maxValue or
// nested deeper than maxDepth is skipped and counted in c; only the element
// being read is held, never the document.
func eachElement(r io.Reader, path []string, c *collector, each func(raw []byte) (stop bool)) error {
	w := newWalker(r)
	for _, key := range path {
		if err := w.expect('{'); err != nil {
			return err
		}
		for first := true; ; first = false {
			k, end, err := w.member(first)
			if err != nil {
				return err
			}
			if end {
				return fmt.Errorf("%w: no key %q at offset %d", wire.ErrMalformed, key, w.off)
			}
			if k == key {
				break
			}
			if err := w.skip(); err != nil {
				return err
			}
		}
	}
	return w.elements(c, each)
}

func newWalker(r io.Reader) *walker { return &walker{r: bufio.NewReaderSize(r, readBuffer)} }

// elements reads an array, calling each with every element's text until each
// says stop; an element too long or too deep is skipped and counted in c.
func (w *walker) elements(c *collector, each func(raw []byte) (stop bool)) error {
	if err := w.expect('['); err != nil {
		return err
	}
	for first := true; ; first = false {
		end, err := w.delim(first, ']')
		if err != nil || end {
			return err
		}
		if err := w.value(true); err != nil {
			return err
		}
		if w.reason != "" {
			c.skip(w.reason)
			continue
		}
		if each(w.buf) {
			return nil
		}
	}
}

// small reads one value that must fit in maxValue bytes and decodes it into v.
func (w *walker) small(what string, v any) error {
	if err := w.value(true); err != nil {
		return err
	}
	if w.reason != "" {
		return fmt.Errorf("%w: %s is %s (at offset %d)", wire.ErrMalformed, what, strings.ReplaceAll(w.reason, "_", " "), w.off)
	}
	if err := json.Unmarshal(w.buf, v); err != nil {
		return fmt.Errorf("%w: %s: %v", wire.ErrMalformed, what, err)
	}
	return nil
}

// skip reads past one value on the way to the list, holding none of it.
func (w *walker) skip() error {
	if err := w.value(false); err != nil {
		return err
	}
	if w.reason == SkipTooDeep {
		return fmt.Errorf("%w: JSON nested deeper than %d at offset %d", wire.ErrMalformed, maxDepth, w.off)
	}
	return nil
}

// member reads up to an object's next key and its colon; end says the object
// closed instead.
func (w *walker) member(first bool) (key string, end bool, err error) {
	if end, err := w.delim(first, '}'); err != nil || end {
		return "", end, err
	}
	c, err := w.next()
	if err != nil {
		return "", false, err
	}
	if c != '"' {
		return "", false, w.unexpected(c, "a key")
	}
	w.buf, w.keep, w.reason = append(w.buf[:0], c), true, ""
	if err := w.str(); err != nil {
		return "", false, err
	}
	if w.reason != "" {
		return "", false, fmt.Errorf("%w: a key longer than %d bytes (at offset %d)", wire.ErrTooLarge, maxValue, w.off)
	}
	if err := json.Unmarshal(w.buf, &key); err != nil {
		return "", false, fmt.Errorf("%w: key at offset %d: %v", wire.ErrMalformed, w.off, err)
	}
	return key, false, w.expect(':')
}

// delim reads the comma before a member or element (none before the first)
// and reports whether closing came instead.
func (w *walker) delim(first bool, closing byte) (end bool, err error) {
	c, err := w.next()
	if err != nil {
		return false, err
	}
	if c == closing {
		return true, nil
	}
	if first {
		w.unread()
		return false, nil
	}
	if c != ',' {
		return false, w.unexpected(c, "',' or '"+string(closing)+"'")
	}
	return false, nil
}

// value reads one value: into buf when keep (at most maxValue bytes; past
// that, or past maxDepth, reason says why it is not kept).
func (w *walker) value(keep bool) error {
	w.buf, w.keep, w.reason = w.buf[:0], keep, ""
	c, err := w.next()
	if err != nil {
		return err
	}
	switch c {
	case '"':
		w.put(c)
		return w.str()
	case '{', '[':
		return w.nested(c)
	case '}', ']', ',', ':':
		return w.unexpected(c, "a value")
	}
	w.put(c) // a number or a literal, up to the next delimiter
	for {
		c, err := w.byte()
		if err != nil {
			return err
		}
		switch c {
		case ' ', '\t', '\n', '\r', ',', ']', '}', ':':
			w.unread()
			return nil
		case '"', '{', '[':
			return w.unexpected(c, "a delimiter")
		}
		w.put(c)
	}
}

// nested reads an object or array that open began, counting its depth.
func (w *walker) nested(open byte) error {
	depth := 0
	for c := open; ; {
		switch c {
		case '"':
			w.put(c)
			if err := w.str(); err != nil {
				return err
			}
		case '{', '[':
			if depth++; depth > maxDepth {
				if !w.keep {
					w.reason = SkipTooDeep // skip fails at once: the path is no list
					return nil
				}
				w.drop(SkipTooDeep)
			}
			w.put(c)
		case '}', ']':
			w.put(c)
			if depth--; depth == 0 {
				return nil
			}
		case ' ', '\t', '\n', '\r':
		default:
			w.put(c)
		}
		var err error
		if c, err = w.byte(); err != nil {
			return err
		}
	}
}

// str reads a string's rest after its opening quote: the runs between
// escapes in bulk, so a long string costs a scan, not a step per byte.
func (w *walker) str() error {
	for {
		if w.r.Buffered() == 0 {
			if _, err := w.r.Peek(1); err != nil {
				return w.readErr(err)
			}
		}
		b, _ := w.r.Peek(w.r.Buffered())
		i := bytes.IndexByte(b, '"') // IndexByte, not IndexAny: memchr's speed
		if i < 0 {
			i = len(b)
		}
		if j := bytes.IndexByte(b[:i], '\\'); j >= 0 {
			i = j
		}
		if i > 0 {
			w.putAll(b[:i])
			w.r.Discard(i)
			w.off += int64(i)
			continue
		}
		c, _ := w.byte() // a quote or a backslash
		w.put(c)
		if c == '"' {
			return nil
		}
		c, err := w.byte() // the escaped byte
		if err != nil {
			return err
		}
		w.put(c)
	}
}

// putAll keeps b in buf, as put does each of its bytes.
func (w *walker) putAll(b []byte) {
	if !w.keep || w.reason != "" {
		return
	}
	if len(w.buf)+len(b) > maxValue {
		w.drop(SkipTooLarge)
		return
	}
	w.buf = append(w.buf, b...)
}

// put keeps c in buf, unless the value is not kept or already too large.
func (w *walker) put(c byte) {
	if !w.keep || w.reason != "" {
		return
	}
	if len(w.buf) >= maxValue {
		w.drop(SkipTooLarge)
		return
	}
	w.buf = append(w.buf, c)
}

// drop stops keeping the value: it is skipped for reason.
func (w *walker) drop(reason string) {
	if w.reason == "" {
		w.reason, w.buf = reason, w.buf[:0]
	}
}

// expect reads the next token, which must be the byte want.
func (w *walker) expect(want byte) error {
	c, err := w.next()
	if err != nil {
		return err
	}
	if c != want {
		return w.unexpected(c, "'"+string(want)+"'")
	}
	return nil
}

// next returns the next byte that is not whitespace, skipping runs of it in
// the read buffer at once.
func (w *walker) next() (byte, error) {
	for {
		if w.r.Buffered() == 0 {
			if _, err := w.r.Peek(1); err != nil {
				return 0, w.readErr(err)
			}
		}
		b, _ := w.r.Peek(w.r.Buffered())
		i := 0
		for i+len(spaces) <= len(b) && bytes.Equal(b[i:i+len(spaces)], spaces) {
			i += len(spaces) // padding: compared in blocks, not byte by byte
		}
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
		w.r.Discard(i)
		w.off += int64(i)
		if i < len(b) {
			return w.byte()
		}
	}
}

func (w *walker) byte() (byte, error) {
	c, err := w.r.ReadByte()
	if err != nil {
		return 0, w.readErr(err)
	}
	w.off++
	return c, nil
}

func (w *walker) unread() {
	if w.r.UnreadByte() == nil {
		w.off--
	}
}

func (w *walker) unexpected(c byte, want string) error {
	return fmt.Errorf("%w: %q at offset %d where %s was expected", wire.ErrMalformed, c, w.off-1, want)
}

// readErr names a read's failure (jsonErr).
func (w *walker) readErr(err error) error { return jsonErr(w.off, err) }
