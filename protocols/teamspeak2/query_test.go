package teamspeak2

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fake is a TeamSpeak 2 query port serving one virtual server on voice port
// 8767: the greeting, `sel`, `si` and `pl` (each also with the port as argument,
// as qstat sends them) and `quit`. It records the commands it got.
type fake struct {
	greeting string
	si, pl   string // replies, OK included
	mu       sync.Mutex
	cmds     []string
}

func newFake(t testing.TB) *fake {
	return &fake{greeting: "[TS]\r\n", si: file(t, "si_default.txt"), pl: file(t, "pl_default.txt")}
}

func file(t testing.TB, name string) string { return string(prototest.File(t, name)) }

func (f *fake) start(t testing.TB) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		io.WriteString(c, f.greeting)
		r := bufio.NewReader(c)
		selected := false
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			cmd := strings.TrimRight(line, "\r\n")
			f.mu.Lock()
			f.cmds = append(f.cmds, cmd)
			f.mu.Unlock()
			name, arg, _ := strings.Cut(cmd, " ")
			if arg != "" {
				if arg != "8767" {
					io.WriteString(c, "ERROR, invalid id\r\n")
					continue
				}
				selected = true
			}
			switch {
			case name == "quit":
				return
			case name == "sel":
				io.WriteString(c, "OK\r\n")
			case !selected:
				io.WriteString(c, "ERROR, invalid id\r\n")
			case name == "si":
				io.WriteString(c, f.si)
			case name == "pl":
				io.WriteString(c, f.pl)
			default:
				io.WriteString(c, "ERROR, unknown command\r\n")
			}
		}
	})
}

func (f *fake) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

// voice is the voice port the targets name; nothing listens there.
var voice = netip.MustParseAddrPort("127.0.0.1:8767")

func probe(t testing.TB, query netip.AddrPort, target netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	s.Options = func(v any) error { v.(*Options).QueryPort = int(query.Port()); return nil }
	return prototest.QueryNew(t, Protocol, target, s, d)
}

// A full probe; one without players or rules; one whose pl the server refuses
// (a phase error beside si's result).
func TestQuery(t *testing.T) {
	for _, c := range []struct {
		name string
		s    protocols.Settings
		pl   string // pl's reply, "" for the vector's
		want string // prototest.ProbeLine
	}{
		{"full", protocols.Settings{Players: true, Rules: true}, "",
			`"Gameserver Exporter TS2" "" "" "" 3/32 bots ? pw 2 [Alice Bob the Builder Jürgen] rules 20 info 20 partial [] | info:ok,players:ok`},
		{"info only", protocols.Settings{}, "", `"Gameserver Exporter TS2" "" "" "" 3/32 bots ? pw 2 - rules - info 20 partial [] | info:ok`},
		{"pl refused", protocols.Settings{Players: true}, "ERROR, not allowed\r\n",
			`"Gameserver Exporter TS2" "" "" "" 3/32 bots ? pw 2 - rules - info 20 partial [players:server_error] | info:ok,players:server_error`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			f.pl = cmp.Or(c.pl, f.pl)
			res, tr, err := probe(t, f.start(t), voice, c.s, 2*time.Second)
			prototest.CheckProbe(t, res, tr, err, c.want)
			prototest.CheckBots(t, res, 3, prototest.Unknown, true) // a voice server has no bots
			prototest.CheckUTF8(t, res)
			// quit is sent after the last reply; the fake may not have read it yet.
			if got := strings.Join(f.commands(), ","); c.s.Players && !strings.HasPrefix(got, "sel 8767,si,pl") {
				t.Errorf("commands %s", got)
			}
		})
	}
}

// The default query port is 51234 on the target's address.
func TestOptions(t *testing.T) {
	if q := prototest.MustNew(t, Protocol, protocols.Settings{}).(*querier); q.queryPort != 51234 {
		t.Errorf("query port %d", q.queryPort)
	}
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"query_port: -1":    "teamspeak2 options: query_port must be between 1 and 65535, got -1",
		"query_port: 65536": "teamspeak2 options: query_port must be between 1 and 65535, got 65536",
		"encoding: koi8-r":  `teamspeak2 options: unknown encoding "koi8-r"`,
	})
}

func TestQueryFailures(t *testing.T) {
	for _, c := range []struct {
		name   string
		set    func(f *fake)
		target netip.AddrPort
		reason string
		msg    string
	}{
		{"no server on the voice port", nil, netip.MustParseAddrPort("127.0.0.1:9999"), "server_error", "voice port 9999"},
		{"not a TS2 greeting", func(f *fake) { f.greeting = "TS3\n\r" }, voice, "malformed", "greeting"},
		{"si without OK, then close", func(f *fake) { f.si = "server_name=x\r\n" }, voice, "timeout", ""},
		{"si answers nothing known", func(f *fake) { f.si = "hello\r\nOK\r\n" }, voice, "malformed", "server_name"},
		{"endless si", func(f *fake) { f.si = strings.Repeat("k=v\r\n", maxLines+1) + "OK\r\n" }, voice, "too_large", "lines"},
		{"line too long", func(f *fake) { f.si = "server_name=" + strings.Repeat("x", maxLine) + "\r\nOK\r\n" }, voice, "too_large", "longer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t)
			if c.set != nil {
				c.set(f)
			}
			_, _, err := probe(t, f.start(t), c.target, protocols.Settings{}, 500*time.Millisecond)
			if wire.Reason(err) != c.reason || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want %s with %q", err, c.reason, c.msg)
			}
		})
	}
	// A server that closes after the greeting, once it has read the command.
	addr := prototest.TCP(t, func(c net.Conn) { io.WriteString(c, "[TS]\r\n"); prototest.DrainLine(c) })
	if _, _, err := probe(t, addr, voice, protocols.Settings{}, 2*time.Second); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("close after greeting: %v", err)
	}
}

func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, onTargetPort, protocols.Settings{}, []byte("[TS]\r\n"))
}

// onTargetPort is Protocol with queriers that connect to the target's own port,
// where the contract's and the drip's fakes listen.
var onTargetPort = prototest.Hooked(Protocol, func(q protocols.Querier) { q.(*querier).queryPort = 0 })

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{Protocol: onTargetPort, Name: "teamspeak2", DefaultPort: 8767, Transport: "tcp"})
}

func BenchmarkQuery(b *testing.B) {
	port := newFake(b).start(b).Port()
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Options: func(v any) error { v.(*Options).QueryPort = int(port); return nil }}, voice)
}

// TestQstatCrossCheck queries the same fake server with `quakestat -ts2` (the
// voice port as its port= argument; qstat sends `si <port>` without `sel`) and
// with the Querier, and compares the name, players and max.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for name, set := range map[string]func(f *fake){
		"default": nil,
		"empty":   func(f *fake) { f.si = strings.Replace(f.si, "server_currentusers=3", "server_currentusers=0", 1) },
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			if set != nil {
				set(f)
			}
			addr := f.start(t)
			qs := prototest.QstatJSON(t, fmt.Sprintf("-ts2,port=%d", voice.Port()), addr)
			if cmds := f.commands(); len(cmds) == 0 || cmds[0] != "si 8767" {
				t.Errorf("qstat sent %q", cmds)
			}
			res, _, err := probe(t, addr, voice, protocols.Settings{}, 2*time.Second)
			prototest.NoError(t, err)
			if qs.Status != "online" || qs.Name != res.Name || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %q %d/%d", qs, res.Name, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
