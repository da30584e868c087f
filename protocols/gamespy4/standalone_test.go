package gamespy4

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestDecodeStandalone covers, with annotated vectors written from the spec, the
// decoder paths that otherwise only the captures of ../shared/fixtures reach (a
// datagram too short for a stat reply's header), so that a clone without
// ../shared tests them too.
func TestDecodeStandalone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		basic bool
		err   error
	}{
		{name: "basic_header_cut", basic: true, err: wire.ErrTruncated},
		{name: "full_header_cut", err: wire.ErrTruncated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			decode := decodeFull
			if tc.basic {
				decode = decodeBasic
			}
			st, err := decode(prototest.VecFile(t, tc.name))
			if !errors.Is(err, tc.err) || st != nil {
				t.Fatalf("result %+v, error %v; want none and %v", st, err, tc.err)
			}
		})
	}
}
