package mctext

import "testing"

func TestStripCodes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"§aGreen §lbold§r end", "Green bold end"},
		{"§x§r§r§g§g§b§bHex", "Hex"},
		{"§x§f§f§0§0§0§0Hex red", "Hex red"},       // BungeeCord hex colour
		{"multi\u00a7\u00e9byte §é", "multibyte "}, // a multi-byte code character
		{"trailing §", "trailing "},
		{"§§a", "a"},
		{"Café §6日本", "Café 日本"},
		{"", ""},
	} {
		if got := StripCodes(c.in); got != c.want {
			t.Errorf("StripCodes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
