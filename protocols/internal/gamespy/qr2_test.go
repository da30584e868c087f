package gamespy

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Handshake replies (gamespy3.md §3): 09, session, ASCII decimal token, NUL.
var challenges = []struct {
	name, reply, token string
	need               bool
	err                error
}{
	{"mcstatus", "091020304035373033353037373800", "21fedcba", true, nil},
	{"wiki.vg", "09010203043935313333303700", "0091295b", true, nil},
	{"negative", "09102030402d3132383735373436393400", "b3412b5a", true, nil}, // qstat's example
	{"above 2^32", "09102030403432393439363732393500", "ffffffff", true, nil},
	{"zero", "09102030403000", "00000000", false, nil},
	{"not a number", "09102030403132616200", "", false, wire.ErrChallenge},
	{"empty", "090102030400", "", false, wire.ErrChallenge},
	{"21 digits", "0910203040" + hex.EncodeToString([]byte("123456789012345678901")) + "00", "", false, wire.ErrChallenge},
	{"stat reply", "0010203040", "", false, wire.ErrMalformed},
	{"short", "0901", "", false, wire.ErrTruncated},
}

func TestParseChallenge(t *testing.T) {
	for _, tc := range challenges {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := hex.DecodeString(tc.reply)
			session, token, need, err := ParseChallenge(b)
			if !errors.Is(err, tc.err) || (err == nil && tc.err != nil) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if err != nil {
				return
			}
			if hex.EncodeToString(token[:]) != tc.token || need != tc.need || session != [4]byte(b[1:5]) {
				t.Errorf("token %x need %v session %x", token, need, session)
			}
		})
	}
}

func FuzzParseChallenge(f *testing.F) {
	for _, tc := range challenges {
		b, _ := hex.DecodeString(tc.reply)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, token, need, err := ParseChallenge(b)
		if err != nil && (need || token != [4]byte{}) {
			t.Fatalf("error %v with token %x", err, token)
		}
		if err == nil && !need && token != [4]byte{} {
			t.Fatalf("token %x without need", token)
		}
	})
}
