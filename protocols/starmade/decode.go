package starmade

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// request is the status command (see the package comment).
var request = []byte{0x00, 0x00, 0x00, 0x09, 0x2a, 0xff, 0xff, 0x01, 0x6f, 0x00, 0x00, 0x00, 0x00}

const (
	headerLen  = 4 + 8 // length, timestamp
	packetType = 0x2a
	// maxBody caps an answer: a status is some 100 bytes plus the description.
	maxBody = 64 << 10
	// maxParams caps the parameter count: a status has 7.
	maxParams = 64
)

// Parameter types.
const (
	tInt = iota + 1
	tLong
	tFloat
	tString
	tBool
	tByte
	tShort
)

// param is one decoded parameter: a number or a string.
type param struct {
	typ byte
	num float64 // int, long, float, bool, byte, short
	str string
}

func (p param) String() string {
	switch p.typ {
	case tString:
		return p.str
	case tFloat:
		return strconv.FormatFloat(p.num, 'f', -1, 32)
	}
	return strconv.FormatFloat(p.num, 'f', -1, 64)
}

// bodyLen reads the answer's header and returns the length of its body.
func bodyLen(hdr []byte) (int, error) {
	r := wire.NewReader(hdr)
	n := int64(int32(r.Uint32BE("length")))
	switch {
	case n > maxBody:
		return 0, fmt.Errorf("%w: answer length %d, at most %d", wire.ErrTooLarge, n, maxBody)
	case n < 5+4:
		return 0, fmt.Errorf("%w: answer length %d, less than the packet header and parameter count", wire.ErrMalformed, n)
	}
	return int(n), nil
}

// decodeBody reads the body after the 12-byte header: the packet header, the
// parameter count and the parameters.
func decodeBody(b []byte) ([]param, error) {
	r := wire.NewReader(b)
	if t := r.Uint8("packet type"); r.Err() == nil && t != packetType {
		return nil, fmt.Errorf("%w: packet type %#x at offset %d, want 0x2a", wire.ErrMalformed, t, headerLen)
	}
	r.Skip(2, "packet id")
	cmd := r.Uint8("command id")
	r.Skip(1, "command type")
	n := int(int32(r.Uint32BE("parameter count")))
	if err := r.Err(); err != nil {
		return nil, err
	}
	if cmd != 0x01 {
		return nil, fmt.Errorf("%w: an answer to command %#x, asked 0x01 (status)", wire.ErrMismatch, cmd)
	}
	if n < 0 || n > maxParams {
		return nil, fmt.Errorf("%w: %d parameters, at most %d", wire.ErrTooLarge, n, maxParams)
	}
	ps := make([]param, 0, n)
	for i := range n {
		off := headerLen + r.Offset()
		t := r.Uint8("parameter type")
		p := param{typ: t}
		switch t {
		case tInt:
			p.num = float64(int32(r.Uint32BE(fmt.Sprintf("parameter %d int", i))))
		case tLong:
			p.num = float64(int64(be64(&r, fmt.Sprintf("parameter %d long", i))))
		case tFloat:
			p.num = float64(math.Float32frombits(r.Uint32BE(fmt.Sprintf("parameter %d float", i))))
		case tString:
			l := int(r.Uint16BE(fmt.Sprintf("parameter %d string length", i)))
			p.str = wire.UTF8(r.Bytes(l, fmt.Sprintf("parameter %d string", i)))
		case tBool, tByte:
			p.num = float64(r.Uint8(fmt.Sprintf("parameter %d byte", i)))
		case tShort:
			p.num = float64(int16(r.Uint16BE(fmt.Sprintf("parameter %d short", i))))
		default:
			if r.Err() == nil {
				return nil, fmt.Errorf("%w: parameter %d type %d at offset %d", wire.ErrMalformed, i, t, off)
			}
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// startTime is the server's start time, sent as Unix milliseconds; a value no
// running server can mean (before 2000, past 2100) is left out.
func startTime(ms float64) time.Time {
	const y2000, y2100 = 946684800e3, 4102444800e3
	if !(ms >= y2000 && ms < y2100) {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms))
}

func be64(r *wire.Reader, what string) uint64 {
	hi := uint64(r.Uint32BE(what))
	return hi<<32 | uint64(r.Uint32BE(what))
}

// Status parameters, by position.
const (
	pInfoVersion = iota
	pVersion
	pName
	pDescription
	pStartTime
	pPlayers
	pMax
	nStatus
)

// result maps the status parameters; each must have the type qstat reads.
func result(ps []param) (*protocols.Result, error) {
	want := [nStatus]byte{tByte, tFloat, tString, tString, tLong, tInt, tInt}
	if len(ps) < nStatus {
		return nil, fmt.Errorf("%w: %d status parameters, want %d", wire.ErrMalformed, len(ps), nStatus)
	}
	for i, t := range want {
		if ps[i].typ != t {
			return nil, fmt.Errorf("%w: status parameter %d has type %d, want %d", wire.ErrMalformed, i, ps[i].typ, t)
		}
	}
	for _, i := range []int{pPlayers, pMax} {
		if ps[i].num < 0 {
			return nil, fmt.Errorf("%w: status parameter %d is %v, not a count", wire.ErrMalformed, i, ps[i].num)
		}
	}
	res := &protocols.Result{
		Name:       ps[pName].str,
		Version:    ps[pVersion].String(),
		Players:    protocols.Known(int64(ps[pPlayers].num)),
		MaxPlayers: protocols.Known(int64(ps[pMax].num)),
		Started:    startTime(ps[pStartTime].num),
	}
	names := [nStatus]string{"info_version", "version", "name", "description", "start_time_ms", "players", "max_players"}
	for i, p := range ps {
		key := "param_" + strconv.Itoa(i)
		if i < nStatus {
			key = names[i]
		}
		res.Info = append(res.Info, protocols.KV{Key: key, Value: p.String()})
	}
	return res, nil
}
