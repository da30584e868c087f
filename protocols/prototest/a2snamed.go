package prototest

import (
	"net/netip"
	"testing"
)

// A2SServerNamed is A2SServer with the server name given (a hostile one, a long
// one) in its A2S_INFO reply.
func A2SServerNamed(t testing.TB, name string) netip.AddrPort {
	t.Helper()
	info := append([]byte("\xff\xff\xff\xffI\x11"+name+"\x00de_dust2\x00csgo\x00Counter-Strike\x00"),
		0xda, 0x02, 5, 16, 1, 'd', 'l', 0, 1)
	info = append(info, "1.0.0.0\x00"...)
	return UDP(t, func(req []byte) [][]byte {
		if len(req) < 25 || string(req[4:24]) != "TSource Engine Query" {
			return nil
		}
		if len(req) == 25 {
			return [][]byte{[]byte("\xff\xff\xff\xffA\x01\x02\x03\x04")}
		}
		if string(req[25:]) == "\x01\x02\x03\x04" {
			return [][]byte{info}
		}
		return nil
	})
}
