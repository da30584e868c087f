package hostile

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/a2s"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// cases are the misbehaviours, in the order they run.
var cases = []hostileCase{
	// The fake servers answering properly: every other case differs from this one
	// only by its misbehaviour.
	{name: "baseline", fast: true, want: every([]string{success}, hasDialect), replies: ones(dialectReply)},
	{name: "silence", want: every([]string{timeout}), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		if tcp(p) {
			return startTCP(t, func(_ *tcpServer, c net.Conn) { drain(c) }).at()
		}
		return startUDP(t, nil).at()
	}},
	{name: "late_reply", want: every([]string{timeout}, hasDialect), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		late := probeTimeout + 200*time.Millisecond
		reply := dialects[p.Name].reply
		if tcp(p) {
			return startTCP(t, func(s *tcpServer, c net.Conn) {
				req := readRequest(c, p)
				if s.wait(late) {
					c.Write(reply(req))
				}
			}).at()
		}
		return startUDP(t, func(s *udpServer, req []byte, from netip.AddrPort) {
			s.later(late, func() { s.send(from, reply(req)) })
		}).at()
	}},
	{name: "drip", want: every([]string{timeout}, tcp, hasDialect), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		reply := dialects[p.Name].reply
		return startTCP(t, func(s *tcpServer, c net.Conn) {
			// A server that speaks first drips its greeting: the client waits for
			// it before it sends anything.
			out := dialects[p.Name].greeting
			if out == nil {
				out = reply(readRequest(c, p))
			}
			for _, b := range out {
				if _, err := c.Write([]byte{b}); err != nil || !s.wait(time.Second) {
					return
				}
			}
		}).at()
	}},
	{name: "backlog_full", want: every([]string{timeout}, tcp), start: func(t *testing.T, _ protocols.Protocol) (netip.AddrPort, server) {
		return fullBacklog(t)
	}},
	{name: "closed_port", fast: true, want: every([]string{refused}), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		if tcp(p) {
			return prototest.ClosedTCPPort(t), nopServer{}
		}
		return prototest.ClosedUDPPort(t), nopServer{}
	}},
	// A second socket answers: the querier's connected socket must drop it.
	{name: "other_port", want: every([]string{timeout}, udp, hasDialect), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		other := startUDP(t, nil)
		reply := dialects[p.Name].reply
		s := startUDP(t, func(_ *udpServer, req []byte, from netip.AddrPort) { other.send(from, reply(req)) })
		return s.addr, closeAll{s, other}
	}},
	// Every reply echoes another challenge, id or cookie than the request's:
	// stray or spoofed replies, never taken for the answer.
	{name: "wrong_echo", want: every([]string{mismatch}, echoes), replies: func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		reply, span := dialects[p.Name].reply, dialects[p.Name].echo
		return func(req []byte) [][]byte {
			req = slices.Clone(req)
			lo, hi := span(req)
			for i := lo; i < hi; i++ {
				req[i] ^= 0x01
			}
			return [][]byte{reply(req)}
		}
	}},
	// A TCP server that reads the request and closes without a word (after its
	// greeting, when it speaks first).
	{name: "hangup", fast: true, want: every([]string{truncated}, tcp), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		return startTCP(t, func(_ *tcpServer, c net.Conn) { readRequest(c, p) }).at()
	}},
	{name: "random", want: every(garbage), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		r := seeded("random/" + p.Name)
		if tcp(p) && speaksFirst(p) {
			// Junk where the greeting should be.
			return startTCP(t, func(_ *tcpServer, c net.Conn) {
				c.Write(randomBytes(r, 1+r.IntN(1400)))
				drain(c)
			}).at()
		}
		return answer(t, p, func([]byte) [][]byte {
			var out [][]byte
			for range 3 {
				out = append(out, randomBytes(r, 1+r.IntN(1400)))
			}
			return out
		})
	}},
	// Random bytes behind a header the querier accepts, so they reach the decoder.
	{name: "random_tail", want: every([]string{anyOutcome}, hasDialect), replies: func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		r := seeded("random_tail/" + p.Name)
		prefix := dialects[p.Name].prefix
		return func(req []byte) [][]byte {
			head := prefix(req)
			if head == nil {
				return nil // a request the dialect ignores
			}
			var out [][]byte
			for range 4 {
				out = append(out, append(bytes.Clone(head), randomBytes(r, r.IntN(1400))...))
			}
			return out
		}
	}},
	// A junk datagram shorter than the protocol's header may end the probe as truncated.
	{name: "flood", want: every([]string{malformed, mismatch, timeout, truncated}, udp), replies: always(flood()...)},
	{
		name: "huge_length",
		fast: true,
		want: per(map[string][]string{
			"a2s": {tooLarge}, "goldsrc": {tooLarge}, "skycoop": {tooLarge}, "satisfactory": {truncated},
			"ase": {truncated}, "gamespy1": {tooLarge}, "hytale": {malformed}, "minecraft": {tooLarge},
			"bedrock": {tooLarge}, "frostbite": {tooLarge}, "cube2": {tooLarge}, "openttd": {tooLarge},
			"palworld": {truncated, tooLarge}, "terraria": {truncated, tooLarge}, "samp": {tooLarge}, "starmade": {tooLarge},
		}),
		replies: ones(func(p protocols.Protocol) func([]byte) []byte { return hugeLength[p.Name] }),
	},
	{name: "split_255_of_3", fast: true, want: steam(tooLarge), replies: always(announce(255, 3)...)},
	{name: "split_60_of_3", want: steam(timeout), replies: always(announce(60, 3)...)},
	// Duplicated and out-of-order fragments of a reply still decode.
	{name: "shuffled", fast: true, want: every([]string{success}, splits), start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
		var frags [][]byte
		switch p.Name {
		case "gamespy3":
			// The packets echo the session of the stat request; the handshake
			// gets its challenge.
			return answerUDP(t, func(req []byte) [][]byte {
				if isQR2Handshake(req) {
					return [][]byte{qr2Challenge(req)}
				}
				return pick(gamespy3Parts(req), 2, 0, 2, 1, 0)
			})
		case "gamespy1":
			frags = gs1Parts
		case "ase":
			frags = aseFragments(aseReply(100), "\x01\x02\x03\x04")
		default:
			frags = splitSource(9, a2sInfo(), 3)
		}
		if len(frags) != 3 {
			t.Fatalf("%d fragments, the case wants 3", len(frags))
		}
		return answerUDP(t, func([]byte) [][]byte { return pick(frags, 2, 0, 2, 1, 0) })
	}},
	{name: "bzip2_bomb", fast: true, want: steam(tooLarge), replies: bzip2Bombs(21)},
	{name: "challenge_forever", fast: true, want: steam(challenge), replies: challenges("challenge/")},
	{
		name: "endless",
		want: per(map[string][]string{
			"gamespy1": {tooLarge, timeout}, "ase": {malformed, timeout},
			"a2s": {timeout, tooLarge, malformed}, "goldsrc": {timeout, tooLarge, malformed},
			"hytale": {tooLarge, timeout}, "minecraft": {malformed, truncated, tooLarge, timeout},
			"teamspeak3": {tooLarge, timeout}, "palworld": {tooLarge, timeout}, "terraria": {tooLarge, timeout},
			"gamespy3": {tooLarge, timeout},
		}),
		start: func(t *testing.T, p protocols.Protocol) (netip.AddrPort, server) {
			switch p.Name {
			case "hytale", "minecraft", "teamspeak3", "palworld", "terraria":
				// A line that never ends (TeamSpeak 3: its greeting); for Minecraft,
				// a status frame of the largest size accepted whose bytes keep coming;
				// over HTTP, a body without a length that never ends.
				chunk := []byte(strings.Repeat("A", 1024))
				return startTCP(t, func(s *tcpServer, c net.Conn) {
					if !speaksFirst(p) {
						c.Read(make([]byte, 512))
					}
					switch p.Name {
					case "minecraft":
						c.Write(append(varint(256<<10), 0x00))
					case "palworld", "terraria":
						c.Write(httpPrefix(nil))
					}
					for i := 0; i < 1<<14; i++ {
						if _, err := c.Write(chunk); err != nil {
							return
						}
					}
				}).at()
			case "gamespy3":
				// Stat packets 0..126 over and over, none flagged last, after a
				// proper handshake.
				pad := strings.Repeat("x", 900)
				return startUDP(t, func(s *udpServer, req []byte, from netip.AddrPort) {
					if isQR2Handshake(req) {
						s.send(from, qr2Challenge(req))
						return
					}
					s.stream(100*time.Microsecond, func(i int) bool {
						s.send(from, append(qr2StatHeader(req, byte(i%127), 0), "hostname\x00"+serverName+"\x00padding\x00"+pad+"\x00"...))
						return i+1 < 5000
					})
				}).at()
			case "gamespy1":
				// Packets 1..32 over and over, never \final\.
				return streamUDP(t, 5000, 0, func(i int) []byte {
					return []byte(fmt.Sprintf(`\hostname\%s\padding\%s\queryid\5.%d`, serverName, strings.Repeat("x", 900), i%32+1))
				})
			case "ase":
				f := aseFragments(aseReply(100), "\x05\x06\x07\x08")[1]
				return streamUDP(t, 5000, 0, func(int) []byte { return f })
			default:
				// Fragment 0 of 2 again and again: duplicates of a set that never
				// completes, at a rate a probe can read (one per 100 µs).
				payload := append(a2sInfo(), make([]byte, 1000)...)
				f := sourceFragment(33, 2, 0, payload)
				return streamUDP(t, 20000, 100*time.Microsecond, func(int) []byte { return f })
			}
		},
	},
}

// hugeLength answers with a length or count field of 2^31 (or the field's maximum).
var hugeLength = map[string]func(req []byte) []byte{
	"a2s":       a2sHuge, // a compressed message declaring 2^31 uncompressed bytes
	"goldsrc":   a2sHuge,
	"skycoop":   fixed("\x93\x00\x00\x00\xFF\xFF\xFF\x7Fabcd"),             // a server name of 2^31-1 UTF-16 bytes
	"ase":       fixed("EYE1\xFFabc"),                                      // a game name whose length byte says 254 bytes follow; 3 do
	"gamespy1":  fixed(`\hostname\x\queryid\1.2147483648\final\`),          // packet number 2^31
	"hytale":    fixed("OK 2147483648 100000000000000000000\n"),            // counts of 2^31 and 10^20
	"frostbite": fixed("\x01\x00\x00\x40\x00\x00\x00\x80\x06\x00\x00\x00"), // a packet of 2^31 bytes
	"openttd":   fixed("\xFF\xFF\x06\x07\x00\x00"),                         // a packet size of 65535 (the u16's maximum), game info type, 3 bytes
	"palworld":  fixed(httpHead + "Content-Length: 2147483648\r\n\r\n{"),   // a Content-Length of 2^31, one byte of body
	"terraria":  fixed(httpHead + "Content-Length: 2147483648\r\n\r\n{"),
	// A frame of 2^31-1 bytes.
	"minecraft": func([]byte) []byte { return append(varint(1<<31-1), 0x00) },
	// Name length 65535 (a u16), one byte of name.
	"satisfactory": func(req []byte) []byte { return satisfactoryBody(satisfactoryPrefix(req), 0xFFFF, "x") },
	// A server id string of 65535 bytes; 3 follow.
	"bedrock": func(req []byte) []byte { return append(first(33, bedrockReply)(req), 0xFF, 0xFF, 'a', 'b', 'c') },
	// An attribute count of 2^31-1 (a packed int: 0x81 + int32), no client.
	"cube2": func(req []byte) []byte { return append(bytes.Clone(req), 0x00, 0x81, 0xFF, 0xFF, 0xFF, 0x7F) },
	// An answer length of 2^31-1, the rest of a header.
	"starmade": func([]byte) []byte { return append([]byte{0x7f, 0xff, 0xff, 0xff}, starmadeHeader(0, 0)[4:]...) },
	// A host name of 2^32-1 bytes, 3 follow.
	"samp": func(req []byte) []byte {
		return append(sampPrefix(req), 0, 2, 0, 32, 0, 0xFF, 0xFF, 0xFF, 0xFF, 'a', 'b', 'c')
	},
}

var a2sHuge = fixed(string(compressedFragment0(5, 1<<31, []byte("BZh91AY&SY"))))

// replier makes, for a protocol, what a fake server answers to each request.
type replier = func(t *testing.T, p protocols.Protocol) func(req []byte) [][]byte

// always answers every request with ds.
func always(ds ...[]byte) replier {
	return func(*testing.T, protocols.Protocol) func([]byte) [][]byte { return func([]byte) [][]byte { return ds } }
}

// ones answers every request with the one reply reply(p) makes of it.
func ones(reply func(p protocols.Protocol) func([]byte) []byte) replier {
	return func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		f := reply(p)
		return func(req []byte) [][]byte { return [][]byte{f(req)} }
	}
}

func dialectReply(p protocols.Protocol) func([]byte) []byte { return dialects[p.Name].reply }

// splits: p's replies may come in fragments.
func splits(p protocols.Protocol) bool {
	return slices.Contains([]string{"a2s", "goldsrc", "gamespy1", "ase", "gamespy3"}, p.Name)
}

// steam applies to the A2S protocols, reason for both.
func steam(reason string) func(p protocols.Protocol) ([]string, bool) {
	return per(map[string][]string{"a2s": {reason}, "goldsrc": {reason}})
}

// flood is a hundred junk datagrams.
func flood() [][]byte {
	out := make([][]byte, 100)
	for i := range out {
		out[i] = []byte(fmt.Sprintf("JUNK%03d", i))
	}
	return out
}

// challenges answers every request with a fresh S2C_CHALLENGE.
func challenges(seed string) replier {
	return func(_ *testing.T, p protocols.Protocol) func([]byte) [][]byte {
		r := seeded(seed + p.Name)
		return func([]byte) [][]byte { return [][]byte{a2sChallenge(r.Uint32())} }
	}
}

// bzip2Bombs answers every request with a compressed message of the biggest size
// the decoder accepts: the stream, not the header, lies.
func bzip2Bombs(id uint32) replier {
	return func(t *testing.T, _ protocols.Protocol) func([]byte) [][]byte {
		f := compressedFragment0(id, a2s.MaxDecompressed, bzip2Bomb(t))
		return func([]byte) [][]byte { return [][]byte{f} }
	}
}

// announce is a Source split reply announcing total fragments and sending n.
func announce(total, n int) [][]byte {
	msg := append(a2sInfo(), make([]byte, 3000)...)
	out := make([][]byte, n)
	for i := range out {
		out[i] = sourceFragment(7, byte(total), byte(i), msg[i*1000:(i+1)*1000])
	}
	return out
}

type closeAll []server

func (c closeAll) Close() {
	for _, s := range c {
		s.Close()
	}
}

var bomb struct {
	once   sync.Once
	stream []byte
	err    error
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// bzip2Bomb returns a bzip2 stream that decompresses to 2 GiB of zeros: 64 MiB of
// zeros compressed by the bzip2 command (about 80 bytes), 32 times over (Go's
// decoder reads concatenated streams as one). compress/bzip2 cannot compress, hence
// the command; the test skips when it is missing.
func bzip2Bomb(t testing.TB) []byte {
	t.Helper()
	path, err := exec.LookPath("bzip2")
	if err != nil {
		t.Skip("the bzip2 command is not installed: skipping the bzip2 bomb")
	}
	bomb.once.Do(func() {
		cmd := exec.Command(path, "-9", "-c")
		cmd.Stdin = io.LimitReader(zeros{}, 64<<20)
		var one []byte
		if one, bomb.err = cmd.Output(); bomb.err == nil {
			bomb.stream = bytes.Repeat(one, 32)
		}
	})
	if bomb.err != nil {
		t.Fatalf("bzip2: %v", bomb.err)
	}
	return bomb.stream
}
