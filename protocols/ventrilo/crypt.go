package ventrilo

import "encoding/binary"

const headerLen = 20

// header is a datagram's header, decrypted.
type header struct {
	Key, Zero, Cmd, ID, TotLen, Len, TotPck, Pck, DataKey, CRC uint16
}

// crc16 is CRC-16/XMODEM (polynomial 0x1021, initial 0): the table qstat carries.
func crc16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc ^= uint16(c) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// crypt adds (enc) or subtracts the key stream of table, started at start and
// moved on by step, to b; mod is the period of the position term (5 for the
// header, 72 for data). A step of 0 leaves b plain.
func crypt(b []byte, table *[256]byte, start, step byte, mod int, enc bool) {
	if step == 0 {
		return
	}
	for i := range b {
		k := table[start] + byte(i%mod)
		if enc {
			b[i] += k
		} else {
			b[i] -= k
		}
		start += step
	}
}

// encode builds a datagram: h (Key and DataKey as given: their high byte is the
// start, the low byte the step) and data, both encrypted. data is changed.
func encode(h header, data []byte) []byte {
	out := make([]byte, headerLen, headerLen+len(data))
	for i, v := range []uint16{h.Key, h.Zero, h.Cmd, h.ID, h.TotLen, h.Len, h.TotPck, h.Pck, h.DataKey, h.CRC} {
		binary.BigEndian.PutUint16(out[2*i:], v)
	}
	crypt(out[2:], &headerKey, byte(h.Key>>8), byte(h.Key), 5, true)
	crypt(data, &dataKey, byte(h.DataKey>>8), byte(h.DataKey), 72, true)
	return append(out, data...)
}

// decode decrypts a datagram of at least headerLen bytes, returning its header
// and its data (a copy: d is left as it was).
func decode(d []byte) (header, []byte) {
	b := append([]byte(nil), d...)
	crypt(b[2:headerLen], &headerKey, b[0], b[1], 5, false)
	var f [10]uint16
	for i := range f {
		f[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	h := header{f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]}
	data := b[headerLen:]
	crypt(data, &dataKey, byte(h.DataKey>>8), byte(h.DataKey), 72, false)
	return h, data
}

// Answer returns a one-datagram answer to the request req whose header says it
// carries declared data bytes, followed by text, its data in plain (a data key
// of step 0), its header encrypted as a server's. It is exported for the hostile
// suite (package hostile), whose fake servers must echo the request's id and
// cannot read it without the key tables; nothing else uses it. A req too short
// to be a request gets nil.
func Answer(req, text []byte, declared int) []byte {
	if len(req) < headerLen {
		return nil
	}
	h, _ := decode(req)
	out := encode(header{Key: 0x5a3b, Cmd: cmdDetailed, ID: h.ID, TotLen: uint16(declared), Len: uint16(declared), TotPck: 1}, nil)
	return append(out, text...)
}
