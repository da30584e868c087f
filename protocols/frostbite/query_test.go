package frostbite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// rconServer reads packets the way a Frostbite server does and writes, at once,
// what answer returns for each; a nil answer closes the connection.
func rconServer(t testing.TB, answer func(req packet) []byte) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		for {
			var hdr [headerLen]byte
			if _, err := io.ReadFull(c, hdr[:]); err != nil {
				return
			}
			_, size, err := header(hdr[:])
			if err != nil {
				return
			}
			b := make([]byte, size)
			copy(b, hdr[:])
			if _, err := io.ReadFull(c, b[headerLen:]); err != nil {
				return
			}
			req, err := decodePacket(b)
			if err != nil {
				t.Errorf("fake server: bad request: %v", err)
				return
			}
			out := answer(req)
			if out == nil {
				return
			}
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	})
}

// answering answers serverInfo with the packet b, version with version_bf4 and
// listPlayers all with players_bf4, each re-stamped with the request's sequence
// number, and any other command (qstat's quit) with OK.
func answering(t testing.TB, b []byte) func(packet) []byte {
	version, players := vector(t, "version_bf4"), vector(t, "players_bf4")
	return func(req packet) []byte {
		switch {
		case len(req.words) == 1 && string(req.words[0]) == "serverInfo":
			return stamped(b, req.seq)
		case len(req.words) == 1 && string(req.words[0]) == "version":
			return stamped(version, req.seq)
		case len(req.words) == 2 && string(req.words[0]) == "listPlayers" && string(req.words[1]) == "all":
			return stamped(players, req.seq)
		}
		return encodePacket(bitResponse|req.seq, "OK")
	}
}

// stamped is a copy of packet b with the sequence number seq.
func stamped(b []byte, seq uint32) []byte {
	out := append([]byte(nil), b...)
	if len(out) >= 4 {
		binary.LittleEndian.PutUint32(out, binary.LittleEndian.Uint32(out)&^seqMask|seq)
	}
	return out
}

// Every vector answered over loopback gives the decoder's result, in one phase.
// Over TCP a packet shorter than its size waits for the rest until the deadline,
// and a packet that is no response is skipped (TestQuerySkipsServerPackets).
func TestQueryVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		if name == "bad_request_not_response" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[prototest.Expected](t, filepath.Join("testdata", name+".expected.json"))
			d := 2 * time.Second
			if name == "bad_size_lie_long" {
				e.Error, d = "timeout", 300*time.Millisecond
			}
			addr := rconServer(t, answering(t, vector(t, name)))
			res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, d)
			prototest.CheckExpected(t, e, res, err)
			if len(tr.Phases) == 0 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, err) {
				t.Errorf("phases = %+v", tr.Phases)
			}
			// A server that answered serverInfo is asked its version.
			if err == nil && (len(tr.Phases) != 2 || tr.Phases[1].Name != "version" || tr.Phases[1].Err != nil || res.Version != "179665") {
				t.Errorf("phases = %+v, version %q", tr.Phases, res.Version)
			}
			if err != nil && len(tr.Phases) != 1 {
				t.Errorf("phases = %+v, want no version after a failed serverInfo", tr.Phases)
			}
		})
	}
}

// Packets that are not the answer (an event, a response to another sequence) are
// skipped, each noted; the answer after them is taken.
func TestQuerySkipsServerPackets(t *testing.T) {
	event := vector(t, "bad_request_not_response")
	stray := encodePacket(bitResponse|7, "OK")
	ok := vector(t, "ok_bf4")
	join := func(ps ...[]byte) []byte { return bytes.Join(ps, nil) }

	version := vector(t, "version_bf4")
	addr := rconServer(t, func(req packet) []byte {
		if req.seq == versionSeq {
			return join(event, version)
		}
		return join(event, stray, ok)
	})
	res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "BF4 Test Server - Conquest 24/7" || res.Version != "179665" {
		t.Fatalf("%+v, %v", res, err)
	}
	if len(tr.Entries) != 3 {
		t.Errorf("log = %+v, want the three skipped packets noted", tr.Entries)
	}
}

// A header that promises a body which never comes, a close mid-body or
// mid-header, an event (no answer) then silence or the close, and only
// packets that are not the answer (a mismatch after maxPackets).
func TestQueryNoAnswer(t *testing.T) {
	ok, event := vector(t, "ok_bf4"), vector(t, "bad_request_not_response")
	strays := bytes.Repeat(encodePacket(bitResponse|7, "OK"), maxPackets)
	for _, c := range []struct {
		name  string
		sent  []byte
		close bool // then close, or stay silent
		want  error
	}{
		{"half a packet, then silence", ok[:len(ok)/2], false, wire.ErrTimeout},
		{"half a packet, then close", ok[:len(ok)/2], true, wire.ErrTruncated},
		{"half a header, then close", ok[:5], true, wire.ErrTruncated},
		{"an event, then silence", event, false, wire.ErrTimeout},
		{"an event, then close", event, true, wire.ErrTruncated},
		{"only strays", strays, false, wire.ErrMismatch},
	} {
		addr := prototest.TCP(t, func(c2 net.Conn) {
			io.ReadFull(c2, make([]byte, len(request)))
			c2.Write(c.sent)
			if !c.close {
				io.Copy(io.Discard, c2)
			}
		})
		d := 2 * time.Second
		if !c.close {
			d = 300 * time.Millisecond
		}
		if _, _, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, d); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

// One byte a second: the deadline ends the probe, not the peer.
func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, Protocol, protocols.Settings{}, vector(t, "ok_bf4"))
}

// version on the same connection: its answer (testdata/version_*, as sent:
// the version request's sequence, a response) is the version; an error word, a
// short answer, silence or a close after serverInfo is a phase error beside
// serverInfo's result.
func TestQueryVersion(t *testing.T) {
	ok, bf4 := vector(t, "ok_bf4"), `"BF4 Test Server - Conquest 24/7" "MP_Siege" ""`
	for _, tc := range []struct {
		name   string
		answer []byte // nil: close; empty: silence
		want   string
	}{
		{"bf4", vector(t, "version_bf4"), bf4 + ` "179665" 48/64 bots ? pw 1 - rules - info 23 partial [] | info:ok,version:ok`},
		{"bc2", vector(t, "version_bc2"), bf4 + ` "571287" 48/64 bots ? pw 1 - rules - info 23 partial [] | info:ok,version:ok`},
		{"unknown_command", vector(t, "version_unknown_command"), bf4 + ` "" 48/64 bots ? pw 1 - rules - info 21 partial [version:server_error] | info:ok,version:server_error`},
		{"short", vector(t, "version_short"), bf4 + ` "" 48/64 bots ? pw 1 - rules - info 21 partial [version:malformed] | info:ok,version:malformed`},
		{"silence", []byte{}, bf4 + ` "" 48/64 bots ? pw 1 - rules - info 21 partial [version:timeout] | info:ok,version:timeout`},
		{"close", nil, bf4 + ` "" 48/64 bots ? pw 1 - rules - info 21 partial [version:truncated] | info:ok,version:truncated`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := prototest.TCP(t, func(c net.Conn) {
				io.ReadFull(c, make([]byte, len(request)))
				c.Write(stamped(ok, requestSeq))
				io.ReadFull(c, make([]byte, len(versionRequest)))
				switch {
				case tc.answer == nil:
					return
				case len(tc.answer) == 0:
					io.Copy(io.Discard, c)
				default:
					c.Write(tc.answer)
				}
			})
			res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 500*time.Millisecond)
			prototest.CheckProbe(t, res, tr, err, tc.want)
		})
	}
}

// With players, listPlayers all follows version on the same connection as the
// players phase, a refusal that phase's error; without, it is not asked.
func TestQueryPlayers(t *testing.T) {
	bf4 := `"BF4 Test Server - Conquest 24/7" "MP_Siege" "" "179665" 48/64 bots ? pw 1 `
	for _, tc := range []struct {
		players      bool
		answer, want string
	}{
		{true, "players_bf4", bf4 + `[Sgt_Example TabletCommander] rules - info 23 partial [] | info:ok,version:ok,players:ok`},
		{true, "players_login_required", bf4 + `- rules - info 23 partial [players:server_error] | info:ok,version:ok,players:server_error`},
		{false, "players_bf4", bf4 + `- rules - info 23 partial [] | info:ok,version:ok`},
	} {
		serve := answering(t, vector(t, "ok_bf4"))
		addr := rconServer(t, func(req packet) []byte {
			if string(req.words[0]) == "listPlayers" {
				return stamped(vector(t, tc.answer), req.seq)
			}
			return serve(req)
		})
		res, tr, err := prototest.QueryNew(t, Protocol, addr, protocols.Settings{Players: tc.players}, 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, tc.want)
	}
}

// A server that accepts, reads and never answers; a closed port; a cancelled
// probe: the contract's TCP cases.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "frostbite", DefaultPort: 47200, Transport: "tcp",
	})
}
