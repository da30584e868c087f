package cube2

import (
	"bytes"
	"strings"
)

// cube2uni maps Cube 2's 8-bit character set to Unicode (shared/stream.cpp
// cube2unichars in Sauerbraten, Tesseract and Red Eclipse). It is not Latin-1: the
// ASCII printables and \t\n\v\f\r keep their codes, and the other 161 codes carry
// accented Latin letters, Polish/Czech/Turkish letters and Cyrillic, so that 0xE9
// is з (U+0437), not é. Every code 1-255 has a character, so no fallback to
// Latin-1 is needed; 0 ends a string and never reaches the table.
var cube2uni = [256]rune{
	0, 192, 193, 194, 195, 196, 197, 198, 199, 9, 10, 11, 12, 13, 200, 201,
	202, 203, 204, 205, 206, 207, 209, 210, 211, 212, 213, 214, 216, 217, 218, 219,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
	48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
	64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79,
	80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95,
	96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111,
	112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 220,
	221, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237,
	238, 239, 241, 242, 243, 244, 245, 246, 248, 249, 250, 251, 252, 253, 255, 0x104,
	0x105, 0x106, 0x107, 0x10C, 0x10D, 0x10E, 0x10F, 0x118, 0x119, 0x11A, 0x11B, 0x11E, 0x11F, 0x130, 0x131, 0x141,
	0x142, 0x143, 0x144, 0x147, 0x148, 0x150, 0x151, 0x152, 0x153, 0x158, 0x159, 0x15A, 0x15B, 0x15E, 0x15F, 0x160,
	0x161, 0x164, 0x165, 0x16E, 0x16F, 0x170, 0x171, 0x178, 0x179, 0x17A, 0x17B, 0x17C, 0x17D, 0x17E, 0x404, 0x411,
	0x413, 0x414, 0x416, 0x417, 0x418, 0x419, 0x41B, 0x41F, 0x423, 0x424, 0x426, 0x427, 0x428, 0x429, 0x42A, 0x42B,
	0x42C, 0x42D, 0x42E, 0x42F, 0x431, 0x432, 0x433, 0x434, 0x436, 0x437, 0x438, 0x439, 0x43A, 0x43B, 0x43C, 0x43D,
	0x43F, 0x442, 0x444, 0x446, 0x447, 0x448, 0x449, 0x44A, 0x44B, 0x44C, 0x44D, 0x44E, 0x44F, 0x454, 0x490, 0x491,
}

// text converts a Cube 2 string to UTF-8, without touching colour codes.
func text(b []byte) string {
	ascii := true
	for _, c := range b {
		if c < 0x20 || c > 0x7E {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/2)
	for _, c := range b {
		sb.WriteRune(cube2uni[c])
	}
	return sb.String()
}

// stripColours removes colour codes from a Cube 2 string (raw bytes, before text).
// A code is \f (0x0C) and one character: \f0-\f9 colours, \fs and \fr save and
// restore. Tesseract and Red Eclipse add \f[RRGGBB] / \f[name] colours and \f(icon)
// images, dropped up to the closing bracket; Red Eclipse's blink code \fz takes
// two more characters. A \f at the very end is dropped.
func stripColours(b []byte, redEclipse bool) []byte {
	if bytes.IndexByte(b, '\f') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\f' {
			out = append(out, b[i])
			continue
		}
		i++ // the code character
		if i >= len(b) {
			break
		}
		switch b[i] {
		case '[', '(':
			end := byte(']')
			if b[i] == '(' {
				end = ')'
			}
			if j := bytes.IndexByte(b[i+1:], end); j >= 0 {
				i += j + 1
			}
		case 'z':
			if redEclipse {
				i = min(i+2, len(b))
			}
		}
	}
	return out
}
