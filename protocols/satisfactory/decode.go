package satisfactory

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Wire constants (spec §2-§4, §6).
const (
	magic0, magic1 = 0xD5, 0xF6 // u16 LE 0xF6D5
	msgPoll        = 0
	msgResponse    = 1
	version1       = 1 // "SecondVersion", the 1.0 protocol
	terminator     = 0x01

	minResponse = 29 // envelope, fixed fields, no sub-states, empty name, terminator

	legacyRequestLen  = 10
	legacyResponseLen = 17 // u8 1, u8 0, u64 echo, u8 state, u32 changelist, u16 beacon port
)

// states are the ServerState names in wire order (0 Offline is never sent).
var states = []string{"offline", "idle", "loading", "playing"}

// subStateNames are the ids of spec §4.1; other ids must be ignored.
var subStateNames = [...]string{
	"ServerGameState", "ServerOptions", "AdvancedGameSettings", "SaveCollection",
	"Custom1", "Custom2", "Custom3", "Custom4",
}

// flagNames are ServerFlags bits 0-4; the rest are reserved.
var flagNames = [...]string{"modded", "custom1", "custom2", "custom3", "custom4"}

// subState is one raw sub-state entry as sent.
type subState struct {
	ID      uint8
	Version uint16
}

// response is a decoded Server State Response (or a pre-1.0 reply when Legacy).
type response struct {
	Legacy     bool
	Cookie     uint64
	State      uint8
	NetCL      uint32
	Flags      uint64
	SubStates  []subState // wire order, unknown ids included
	Name       string
	BeaconPort uint16 // pre-1.0 only
	Trailing   int    // bytes after the terminator (future extensions), ignored
}

// request builds the 13-byte Poll Server State message.
func request(cookie uint64) []byte {
	b := []byte{magic0, magic1, msgPoll, version1, 0, 0, 0, 0, 0, 0, 0, 0, terminator}
	binary.LittleEndian.PutUint64(b[4:12], cookie)
	return b
}

// legacyRequest builds the pre-1.0 10-byte poll (message 0, protocol 0, u64 client data).
func legacyRequest(cookie uint64) []byte {
	b := make([]byte, legacyRequestLen)
	binary.LittleEndian.PutUint64(b[2:], cookie)
	return b
}

// isLegacy tells a pre-1.0 reply (no magic: "01 00" then the echo) from the 1.0 envelope.
func isLegacy(b []byte) bool {
	return len(b) >= 2 && b[0] == msgResponse && b[1] == 0
}

// answers reports whether b is a reply to a poll carrying cookie: a response envelope
// (either protocol) whose echoed cookie matches. It looks no further, so that a reply
// with a bad body still reaches decode and fails with a precise error.
func answers(b []byte, cookie uint64) error {
	var got uint64
	switch {
	case len(b) >= 2 && b[0] == magic0 && b[1] == magic1:
		if len(b) < 12 {
			return fmt.Errorf("%w: %d-byte datagram too short for a cookie", wire.ErrTruncated, len(b))
		}
		if b[2] != msgResponse {
			return fmt.Errorf("%w: message type %d at offset 2 is not a Server State Response (1)", wire.ErrMalformed, b[2])
		}
		got = binary.LittleEndian.Uint64(b[4:12])
	case isLegacy(b):
		if len(b) < 10 {
			return fmt.Errorf("%w: %d-byte pre-1.0 reply too short for its echo", wire.ErrTruncated, len(b))
		}
		got = binary.LittleEndian.Uint64(b[2:10])
	default:
		return fmt.Errorf("%w: no Lightweight Query magic (D5 F6) at offset 0", wire.ErrMalformed)
	}
	if got != cookie {
		return fmt.Errorf("%w: reply cookie %#016x, request cookie %#016x", wire.ErrMismatch, got, cookie)
	}
	return nil
}

// decode parses one reply datagram. It does not check the cookie (see answers).
func decode(b []byte) (*response, error) {
	if isLegacy(b) {
		return decodeLegacy(b)
	}
	r := wire.NewReader(b)
	m0, m1 := r.Uint8("magic"), r.Uint8("magic")
	typ, ver := r.Uint8("message type"), r.Uint8("protocol version")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if m0 != magic0 || m1 != magic1 {
		return nil, fmt.Errorf("%w: magic %02X %02X at offset 0, want D5 F6", wire.ErrMalformed, m0, m1)
	}
	// Erratum 4: the header comment calls this byte PollServerStateRequest, but a
	// response carries 1; a 0 here is a poll (for instance our own request echoed).
	if typ != msgResponse {
		return nil, fmt.Errorf("%w: message type %d at offset 2, want 1 (Server State Response)", wire.ErrMalformed, typ)
	}
	if ver != version1 {
		return nil, fmt.Errorf("%w: protocol version %d at offset 3, want 1 (pre-1.0 servers use the legacy option)", wire.ErrMalformed, ver)
	}
	if len(b) < minResponse {
		return nil, fmt.Errorf("%w: %d-byte response, the smallest is %d", wire.ErrTruncated, len(b), minResponse)
	}
	resp := &response{
		Cookie: r.Uint64LE("cookie"),
		State:  r.Uint8("server state"),
		NetCL:  r.Uint32LE("server changelist"),
		Flags:  r.Uint64LE("server flags"),
	}
	n := int(r.Uint8("sub-state count"))
	// Erratum 1: each entry is u8 id + u16 version, packed: 3 bytes (the doc puts the
	// version at offset 8). The name length must still fit after the entries.
	if need := 3*n + 2; r.Len() < need {
		return nil, fmt.Errorf("%w: %d sub-states at offset 26 need %d bytes with the name length, %d left", wire.ErrTruncated, n, need, r.Len())
	}
	resp.SubStates = make([]subState, n) // n <= 255
	for i := range resp.SubStates {
		resp.SubStates[i] = subState{ID: r.Uint8("sub-state id"), Version: r.Uint16LE("sub-state version")}
	}
	// Erratum 2: the length is a u16, so the name starts two bytes after it. It
	// counts bytes, not characters.
	nameLen := int(r.Uint16LE("server name length"))
	nameOff := r.Offset()
	name := r.Bytes(nameLen, "server name")
	if r.Err() != nil {
		return nil, fmt.Errorf("%w: server name length %d at offset %d, %d bytes left", wire.ErrTruncated, nameLen, nameOff-2, len(b)-nameOff)
	}
	// Invalid sequences are replaced rather than failing (spec §8).
	resp.Name = strings.ToValidUTF8(string(name), "\uFFFD")
	// Erratum 3: the terminator follows the payload at 4+len(payload), i.e. right
	// after the name.
	termOff := r.Offset()
	t := r.Uint8("terminator")
	if err := r.Err(); err != nil {
		return nil, err
	}
	if t != terminator {
		return nil, fmt.Errorf("%w: terminator at offset %d is 0x%02X, want 0x01", wire.ErrMalformed, termOff, t)
	}
	resp.Trailing = r.Len()
	return resp, nil
}

func decodeLegacy(b []byte) (*response, error) {
	if len(b) < legacyResponseLen {
		return nil, fmt.Errorf("%w: %d-byte pre-1.0 reply, want %d", wire.ErrTruncated, len(b), legacyResponseLen)
	}
	r := wire.NewReader(b)
	r.Skip(2, "message id and protocol version")
	resp := &response{
		Legacy:     true,
		Cookie:     r.Uint64LE("client data echo"),
		State:      r.Uint8("server state"),
		NetCL:      r.Uint32LE("server version"),
		BeaconPort: r.Uint16LE("beacon port"),
	}
	resp.Trailing = r.Len()
	return resp, r.Err()
}

// stateName names a ServerState; an unknown value is its decimal number (spec §8:
// export it raw), which stays outside Result.States.
func stateName(s uint8) string {
	if int(s) < len(states) {
		return states[s]
	}
	return strconv.Itoa(int(s))
}

// Result turns a response into the exporter's Result.
func (resp *response) Result() *protocols.Result {
	res := &protocols.Result{
		State:   stateName(resp.State),
		States:  states,
		Version: strconv.FormatUint(uint64(resp.NetCL), 10),
	}
	kv := func(k, v string) { res.Info = append(res.Info, protocols.KV{Key: k, Value: v}) }
	if resp.Legacy {
		kv("protocol_version", "0")
		kv("state", strconv.Itoa(int(resp.State)))
		kv("changelist", res.Version)
		kv("beacon_port", strconv.Itoa(int(resp.BeaconPort)))
		return res
	}
	res.Name = resp.Name
	res.Modded = protocols.FlagOf(resp.Flags&1 != 0)
	kv("protocol_version", "1")
	kv("state", strconv.Itoa(int(resp.State)))
	kv("changelist", res.Version)
	kv("flags", fmt.Sprintf("%#x", resp.Flags))
	for i, f := range flagNames {
		kv("flag_"+f, strconv.FormatBool(resp.Flags&(1<<i) != 0))
	}
	var seen [len(subStateNames)]bool
	for _, s := range resp.SubStates {
		v := strconv.Itoa(int(s.Version))
		if int(s.ID) >= len(subStateNames) {
			kv("sub_state_unknown_"+strconv.Itoa(int(s.ID)), v) // ignored, debug only
			continue
		}
		// A repeated id would make duplicate series: the first one wins.
		if seen[s.ID] {
			kv("sub_state_duplicate_"+subStateNames[s.ID], v)
			continue
		}
		seen[s.ID] = true
		name := subStateNames[s.ID]
		res.SubStates = append(res.SubStates, protocols.SubState{Name: name, Version: int64(s.Version)})
		kv("sub_state_"+name, v)
	}
	if resp.Trailing > 0 {
		kv("trailing_bytes", strconv.Itoa(resp.Trailing))
	}
	return res
}
