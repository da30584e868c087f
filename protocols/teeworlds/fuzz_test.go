package teeworlds

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func seed(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b)
	}
}

func check(t *testing.T, in info, err error) {
	if err != nil {
		if r := wire.Reason(err); r == "other" || r == "" {
			t.Fatalf("error without a reason: %v", err)
		}
		return
	}
	if len(in.Clients) > maxClients {
		t.Fatalf("%d clients kept", len(in.Clients))
	}
	prototest.CheckUTF8(t, in.Result(true))
}

// FuzzDecodeInfo07 feeds whole datagrams through the 0.7 header check and
// decoder (vectors use token 12345678), and the token-response parser.
func FuzzDecodeInfo07(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		tokenResponse07(b, vectorToken)
		answers07(b, vectorToken, 42)
		payload, err := connless07(b, vectorToken)
		if err != nil {
			return
		}
		in, err := decodeInfo07(payload)
		check(t, in, err)
	})
}

func FuzzDecodeInfo06(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		answers06(b, 7)
		in, err := decode06(b)
		check(t, in, err)
	})
}
