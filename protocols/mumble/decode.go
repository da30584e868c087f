package mumble

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// game is what every server answering the ping runs.
const game = "Mumble"

const (
	// requestLen is the ping's size: murmur answers nothing else on the UDP port
	// without an encrypted session.
	requestLen = 12
	// replyLen is the reply's size.
	replyLen = 24
)

// request is the legacy ping: request type 0 (4 bytes) and the identifier to echo.
func request(ident uint64) []byte {
	b := make([]byte, requestLen)
	binary.BigEndian.PutUint64(b[4:], ident)
	return b
}

// status is a decoded ping reply.
type status struct {
	// The version is major<<16 | minor<<8 | patch: the major fills two bytes, the
	// first of them 0 in every release so far (often described as "unused").
	Major        uint16
	Minor, Patch uint8
	Ident        uint64
	Users        uint32
	MaxUsers     uint32
	Bandwidth    uint32 // allowed bandwidth per user, bits per second
	Trailing     int    // bytes after the 24 the protocol defines
}

// answers reports whether b answers the ping with ident: it must echo the
// identifier at bytes 4-11.
func answers(b []byte, ident uint64) error {
	if len(b) < 12 {
		return fmt.Errorf("%w: %d-byte datagram, the identifier ends at byte 12", wire.ErrTruncated, len(b))
	}
	if got := binary.BigEndian.Uint64(b[4:]); got != ident {
		return fmt.Errorf("%w: identifier %016x at offset 4, want the echoed %016x", wire.ErrMismatch, got, ident)
	}
	return nil
}

// decode parses a ping reply to the request with ident.
func decode(b []byte, ident uint64) (*status, error) {
	if err := answers(b, ident); err != nil {
		return nil, err
	}
	r := wire.NewReader(b)
	st := &status{}
	st.Major = r.Uint16BE("version major")
	st.Minor = r.Uint8("version minor")
	st.Patch = r.Uint8("version patch")
	st.Ident = binary.BigEndian.Uint64(r.Bytes(8, "identifier"))
	st.Users = r.Uint32BE("users")
	st.MaxUsers = r.Uint32BE("max users")
	st.Bandwidth = r.Uint32BE("bandwidth")
	if err := r.Err(); err != nil {
		return nil, err
	}
	st.Trailing = r.Len()
	return st, nil
}

// Version is "major.minor.patch".
func (st *status) Version() string {
	return fmt.Sprintf("%d.%d.%d", st.Major, st.Minor, st.Patch)
}

// Result turns a status into the exporter's Result; rules adds the bandwidth as a rule.
func (st *status) Result(rules bool) *protocols.Result {
	res := &protocols.Result{
		Game:       game,
		Version:    st.Version(),
		Players:    protocols.Known(int64(st.Users)),
		MaxPlayers: protocols.Known(int64(st.MaxUsers)),
	}
	bw := protocols.KV{Key: "bandwidth", Value: strconv.FormatUint(uint64(st.Bandwidth), 10)}
	res.Info = []protocols.KV{
		{Key: "version", Value: res.Version},
		{Key: "users", Value: strconv.FormatUint(uint64(st.Users), 10)},
		{Key: "max_users", Value: strconv.FormatUint(uint64(st.MaxUsers), 10)},
		bw,
	}
	if st.Trailing > 0 {
		res.Info = append(res.Info, protocols.KV{Key: "trailing_bytes", Value: strconv.Itoa(st.Trailing)})
	}
	if rules {
		res.Rules = []protocols.KV{bw}
	}
	return res
}
