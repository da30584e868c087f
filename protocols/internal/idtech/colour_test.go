package idtech

import "testing"

// TestStripColours is the id Tech 3 rule (quake3).
func TestStripColours(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"plain":            "plain",
		"^1red^7white":     "redwhite",
		"^^00East":         "^0East",
		"^":                "^",
		"a^":               "a^",
		"^^":               "^^",
		"^Xff00AAname":     "name",
		"^Xff00Aname":      "ff00Aname", // five hex digits: ^X is a plain id code
		"^X":               "",
		"^\x00x":           "^\x00x",
		"caf\u00e9^\u00e9": "caf\u00e9",
		"^\u00ffend":       "end",
		"^*^:^=^<a":        "a",
	} {
		if got := StripColours(in); got != want {
			t.Errorf("StripColours(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDecolorize is the DarkPlaces rule, which keeps what the id Tech 3 rule
// removes (`^a`, a lone caret before a byte).
func TestDecolorize(t *testing.T) {
	for in, want := range map[string]string{
		"":               "",
		"plain":          "plain",
		"^1red^7white":   "redwhite",
		"^^1":            "^1",
		"^xF0aRGB":       "RGB",
		"^xF0":           "^xF0",
		"^xG00":          "^xG00",
		"^a^":            "^a^",
		"^^^^":           "^^",
		"^\xe9":          "^\xe9",
		"a^x123b^x12345": "ab45",
	} {
		if got := string(Decolorize([]byte(in))); got != want {
			t.Errorf("Decolorize(%q) = %q, want %q", in, got, want)
		}
	}
}
