package idtech

import "testing"

func TestReadable(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"plain ASCII ~!":   "plain ASCII ~!",
		"\xd2\xe5\xe1\xec": "Real",
		"\x10\x12\x1b\x11": "[09]",
		"\x90\x92\x9b\x91": "[09]",
		"\x01\x05\x09\x0a": "_.  ",
		"\x7f\xff\xa0":     "<< ",
	} {
		if got := Readable([]byte(in)); got != want {
			t.Errorf("Readable(%q) = %q, want %q", in, got, want)
		}
	}
	for c := range 256 {
		if r := ReadableByte(byte(c)); r < 0x20 || r > 0x7E {
			t.Errorf("ReadableByte(%#x) = %#x, not printable ASCII", c, r)
		}
	}
}
