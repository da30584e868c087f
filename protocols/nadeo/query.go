package nadeo

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

type querier struct {
	login    string
	password protocols.Secret
	players  bool
}

// String keeps the password out of any print of the querier.
func (q *querier) String() string   { return "nadeo querier (login " + q.login + ")" }
func (q *querier) GoString() string { return q.String() }

const (
	maxHandshake = 64 // "GBXRemote 2" is 11 bytes
	maxCallbacks = 32 // callbacks skipped while waiting for one answer
	firstHandle  = 0x80000000
)

// conn is one GbxRemote connection: its framing version and next handle.
type conn struct {
	c       *wire.TCPConn
	version int // 1 or 2
	handle  uint32
}

// Query logs in, reads the server's options, version and map (phase "info")
// and its player list (phase "players").
//
// Not a protocols.UDPExchange: XML-RPC over TCP, a log-in and then several calls.
func (q *querier) Query(ctx context.Context, t protocols.Target, tr *wire.Trace) (*protocols.Result, error) {
	p := tr.Begin("login")
	c, err := q.open(ctx, t, tr)
	tr.End(p, err)
	if err != nil {
		return nil, err
	}
	defer c.c.Close()

	p = tr.Begin("info")
	res, err := c.info()
	tr.End(p, err)
	if err != nil {
		return nil, err
	}

	list, ok := protocols.Phase(&res.PhaseErrors, tr, "players", func() ([]protocols.Player, error) {
		v, err := c.call(methodCall("GetPlayerList", maxPlayers, 0), "GetPlayerList", "")
		if err != nil {
			return nil, err
		}
		return playerList(v)
	})
	if !ok {
		return res, nil
	}
	res.Players = protocols.Known(int64(len(list)))
	if q.players {
		res.PlayerList = list
	}
	return res, nil
}

// open connects, reads the handshake and authenticates.
func (q *querier) open(ctx context.Context, t protocols.Target, tr *wire.Trace) (*conn, error) {
	tc, err := wire.DialTCP(ctx, t.Addr, tr)
	if err != nil {
		return nil, err
	}
	c := &conn{c: tc, handle: firstHandle}
	if err := c.handshake(); err != nil {
		tc.Close()
		return nil, err
	}
	req := methodCall("Authenticate", q.login, q.password.Reveal())
	shown := methodCall("Authenticate", q.login, "<secret>")
	v, err := c.call(req, "Authenticate", string(shown))
	if err == nil {
		if ok, isBool := boolean(v); !isBool || !ok {
			err = fmt.Errorf("%w: Authenticate answered %q, not true", wire.ErrMalformed, clip(scalar(v)))
		}
	}
	if err != nil {
		tc.Close()
		var f *fault
		if errors.As(err, &f) {
			return nil, fmt.Errorf("%w: login %q refused (%s): check the module's login and password", wire.ErrServer, q.login, f)
		}
		return nil, err
	}
	return c, nil
}

// handshake reads the length-prefixed "GBXRemote N" the server opens with.
func (c *conn) handshake() error {
	var hdr [4]byte
	if _, err := io.ReadFull(c.c, hdr[:]); err != nil {
		return eof(err, "handshake")
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || n > maxHandshake {
		return fmt.Errorf("%w: handshake length %d, not GbxRemote's", wire.ErrMalformed, n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c.c, b); err != nil {
		return eof(err, "handshake")
	}
	switch string(b) {
	case "GBXRemote 2":
		c.version = 2
	case "GBXRemote 1":
		c.version = 1
	default:
		return fmt.Errorf("%w: handshake %q, want GBXRemote 1 or 2", wire.ErrMismatch, clip(wire.UTF8(b)))
	}
	return nil
}

// call sends one methodCall (traced as shown when that is set: the call holds a
// secret) and returns its answer's value. Callbacks before it are skipped.
func (c *conn) call(req []byte, method, shown string) (*node, error) {
	h := c.handle
	c.handle++
	var hdr []byte
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(len(req)))
	if c.version == 2 {
		hdr = binary.LittleEndian.AppendUint32(hdr, h)
	}
	msg := append(hdr, req...)
	var err error
	if shown != "" {
		_, err = c.c.WriteSecret(msg, string(hdr)+shown)
	} else {
		_, err = c.c.Write(msg)
	}
	if err != nil {
		return nil, err
	}
	for range maxCallbacks + 1 {
		body, got, err := c.read()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if c.version == 2 && got < firstHandle {
			continue // a callback
		}
		if c.version == 2 && got != h {
			return nil, fmt.Errorf("%w: %s answered with handle %#x, sent %#x", wire.ErrMismatch, method, got, h)
		}
		v, err := decodeResponse(body)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("%w: %d callbacks without the answer to %s", wire.ErrMalformed, maxCallbacks, method)
}

// read reads one message: its body and (version 2) its handle.
func (c *conn) read() ([]byte, uint32, error) {
	n := 4
	if c.version == 2 {
		n = 8
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(c.c, hdr); err != nil {
		return nil, 0, eof(err, "answer header")
	}
	size := binary.LittleEndian.Uint32(hdr)
	var h uint32
	if c.version == 2 {
		h = binary.LittleEndian.Uint32(hdr[4:])
	}
	switch {
	case size == 0:
		return nil, 0, fmt.Errorf("%w: answer of length 0", wire.ErrMalformed)
	case size > maxMessage:
		return nil, 0, fmt.Errorf("%w: answer of %d bytes, at most %d are read", wire.ErrTooLarge, size, maxMessage)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(c.c, body); err != nil {
		return nil, 0, eof(err, fmt.Sprintf("answer body (%d bytes)", size))
	}
	return body, h, nil
}

// info reads the server's name, its player limit, the version and the current
// map. GetServerOptions, which would also tell whether the server has a
// password, is not asked: to an Admin login it answers with the passwords
// themselves, which the trace (debug output) would then keep.
func (c *conn) info() (*protocols.Result, error) {
	res := &protocols.Result{}
	for _, s := range []struct {
		method string
		read   func(*node, *protocols.Result) error
	}{
		{"GetServerName", serverName},
		{"GetMaxPlayers", playerLimit},
	} {
		v, err := c.call(methodCall(s.method), s.method, "")
		if err == nil {
			err = s.read(v, res)
		}
		if err != nil {
			return nil, err
		}
	}
	v, err := c.call(methodCall("GetVersion"), "GetVersion", "")
	var name string
	if err == nil {
		name, err = version(v, res)
	}
	if err != nil {
		return nil, err
	}
	// TrackMania Forever and its elders know the map as a challenge.
	method := "GetCurrentMapInfo"
	if strings.HasPrefix(strings.ToLower(name), "tm") {
		method = "GetCurrentChallengeInfo"
	}
	v, err = c.call(methodCall(method), method, "")
	if err == nil {
		err = mapInfo(v, res)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// eof names a close mid-answer as truncation; socket errors already carry a reason.
func eof(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: connection closed before the %s", wire.ErrTruncated, what)
	}
	return err
}
