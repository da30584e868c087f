package teamspeak3

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeServer plays a recorded server output as a ServerQuery server would: the
// greeting (TS3 and its welcome line) on connect, then, for each command line it
// reads, the next lines up to and including an error line; `quit` is answered with
// ok and ends the session, and so does the end of the recording. It records the
// commands it got (terminators stripped).
type fakeServer struct {
	addr  netip.AddrPort
	ended chan struct{} // one value per finished session (dropped when full)
	mu    sync.Mutex
	cmds  []string
}

func serve(t testing.TB, out []byte) *fakeServer {
	t.Helper()
	f := &fakeServer{ended: make(chan struct{}, 1)}
	lines := strings.SplitAfter(string(out), "\n\r")
	f.addr = prototest.TCP(t, func(c net.Conn) {
		defer func() {
			select {
			case f.ended <- struct{}{}:
			default:
			}
		}()
		rest := lines
		n := 0
		if len(rest) > 0 && strings.HasPrefix(rest[0], "TS3") {
			n = min(2, len(rest))
		} else {
			n = len(rest) // not a greeting: say it all and close
		}
		io.WriteString(c, strings.Join(rest[:n], ""))
		rest = rest[n:]
		r := bufio.NewReader(c)
		for len(rest) > 0 && rest[0] != "" {
			cmd, err := r.ReadString('\n')
			if err != nil {
				return
			}
			cmd = strings.TrimRight(cmd, "\r\n")
			f.mu.Lock()
			f.cmds = append(f.cmds, cmd)
			f.mu.Unlock()
			if cmd == "quit" {
				io.WriteString(c, "error id=0 msg=ok\n\r")
				return
			}
			n := 0
			for n < len(rest) && rest[n] != "" {
				n++
				if strings.HasPrefix(rest[n-1], "error") {
					break
				}
			}
			io.WriteString(c, strings.Join(rest[:n], ""))
			rest = rest[n:]
		}
		// The recording is over: take one more command (quit, or one left
		// unanswered) and close.
		if cmd, err := r.ReadString('\n'); err == nil {
			f.mu.Lock()
			f.cmds = append(f.cmds, strings.TrimRight(cmd, "\r\n"))
			f.mu.Unlock()
		}
	})
	return f
}

// commands waits for a session to end and returns every command read so far.
func (f *fakeServer) commands(t testing.TB) []string {
	t.Helper()
	select {
	case <-f.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the fake server's session did not end")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

// withQueryPort is a module whose teamspeak3 block sets query_port.
func withQueryPort(port uint16) protocols.Settings {
	return protocols.Settings{Options: prototest.OptionsOf(Options{QueryPort: int(port)})}
}

// voice is the voice port the test targets name; nothing listens there.
var voice = netip.MustParseAddrPort("127.0.0.1:9987")

// Every vector, played by a server on the query_port the options give while the
// target names the voice port: the result is the decoder's, the voice port goes
// into `use`, and a session that got its serverinfo ends with quit.
func TestQueryVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".expected.json") {
		t.Run(name, func(t *testing.T) {
			e := prototest.ReadJSON[prototest.Expected](t, filepath.Join("testdata", name+".expected.json"))
			f := serve(t, transcript(t, name))
			res, tr, err := prototest.QueryNew(t, Protocol, voice, withQueryPort(f.addr.Port()), 2*time.Second)
			prototest.CheckExpected(t, e, res, err)
			if err == nil { // its ServerQuery connections are left out of Players, not counted as bots
				prototest.CheckBots(t, res, e.Players.V, prototest.Unknown, true)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, err) {
				t.Errorf("phases = %+v", tr.Phases)
			}
			cmds := f.commands(t)
			if len(cmds) > 0 && cmds[0] != "use port=9987" {
				t.Errorf("commands %q, want use port=9987 first", cmds)
			}
			if err == nil && strings.Join(cmds, ",") != "use port=9987,serverinfo,quit" {
				t.Errorf("commands %q", cmds)
			}
		})
	}
}

// With players, clientlist follows serverinfo on the same connection as the
// players phase; a refused clientlist is that phase's error, the probe still up
// with serverinfo's counts.
func TestQueryPlayers(t *testing.T) {
	head := `"Gameserver Exporter Test [EU]" "" "" "3.13.7 [Build: 1655727713]" 4/32 bots ? pw 1 `
	for list, want := range map[string]string{
		"clientlist_mixed":       head + `[Zoë [EU] pipe|/slash] rules - info 33 partial [] | info:ok,players:ok`,
		"clientlist_permissions": head + `- rules - info 33 partial [players:server_error] | info:ok,players:server_error`,
	} {
		f := serve(t, append(transcript(t, "ok_default"), transcript(t, list)...))
		s := withQueryPort(f.addr.Port())
		s.Players = true
		res, tr, err := prototest.QueryNew(t, Protocol, voice, s, 2*time.Second)
		prototest.CheckProbe(t, res, tr, err, want)
		if cmds := f.commands(t); strings.Join(cmds, ",") != "use port=9987,serverinfo,clientlist,quit" {
			t.Errorf("%s: commands %q", list, cmds)
		}
	}
}

// Without options, or with query_port 0, the query goes to port 10011 of the
// target's address.
func TestDefaultQueryPort(t *testing.T) {
	for _, s := range []protocols.Settings{{}, withQueryPort(0)} {
		if q := prototest.MustNew(t, Protocol, s).(*querier); q.queryPort != 10011 {
			t.Errorf("query port %d", q.queryPort)
		}
	}
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"query_port: -1": "query_port", "query_port: 65536": "query_port"})
}

// Servers that end the probe: a banned address is answered and closed before
// it can send anything, the server's message still coming through (repeated so
// that the write of use lands both before and after the close); a server that
// greets, then never answers use, is ended by the deadline; one that never ends its line cannot make the probe buffer without
// bound.
func TestQueryFailures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server func(t *testing.T) netip.AddrPort
		d      time.Duration
		runs   int
		want   error
		msg    string
	}{
		{"banned on connect", func(t *testing.T) netip.AddrPort {
			return prototest.TCP(t, func(c net.Conn) {
				io.WriteString(c, "error id=3329 msg=connection\\sfailed,\\syou\\sare\\sbanned extra_msg=you\\smay\\sretry\\sin\\s600\\sseconds\n\r")
			})
		}, 2 * time.Second, 20, wire.ErrServer, "banned"},
		{"never answers use", func(t *testing.T) netip.AddrPort {
			return prototest.TCP(t, func(c net.Conn) { io.WriteString(c, "TS3\n\rWelcome\n\r"); io.Copy(io.Discard, c) })
		}, 300 * time.Millisecond, 1, wire.ErrTimeout, ""},
		{"endless line", func(t *testing.T) netip.AddrPort {
			return prototest.TCP(t, func(c net.Conn) {
				for chunk := bytes.Repeat([]byte("A"), 1024); ; {
					if _, err := c.Write(chunk); err != nil {
						return
					}
				}
			})
		}, 2 * time.Second, 1, wire.ErrTooLarge, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := tc.server(t)
			for range tc.runs {
				_, _, err := prototest.QueryNew(t, Protocol, voice, withQueryPort(addr.Port()), tc.d)
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("err = %v, want %v saying %q", err, tc.want, tc.msg)
				}
			}
		})
	}
}

func TestQueryDrip(t *testing.T) {
	prototest.DripTimesOut(t, onTargetPort, protocols.Settings{}, transcript(t, "ok_default"))
}

// A serverinfo line longer than the socket buffer is put together whole.
func TestQueryLongLine(t *testing.T) {
	long := "virtualserver_name=Long virtualserver_welcomemessage=" + strings.Repeat("w", 20000) + " virtualserver_maxclients=7"
	f := serve(t, []byte("TS3\n\rWelcome\n\rerror id=0 msg=ok\n\r"+long+"\n\rerror id=0 msg=ok\n\r"))
	res, _, err := prototest.QueryNew(t, Protocol, voice, withQueryPort(f.addr.Port()), 2*time.Second)
	if err != nil || res.Name != "Long" || res.MaxPlayers != protocols.Known(7) {
		t.Fatalf("%+v, %v", res, err)
	}
}

// onTargetPort is Protocol with queriers that connect to the target's own port,
// where the contract's and the drip's fakes listen.
var onTargetPort = prototest.Hooked(Protocol, func(q protocols.Querier) { q.(*querier).queryPort = 0 })

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{Protocol: onTargetPort, Name: "teamspeak3", DefaultPort: 9987, Transport: "tcp"})
}

// BenchmarkQuery is a full exchange over loopback TCP, one connection per query.
func BenchmarkQuery(b *testing.B) {
	f := serve(b, transcript(b, "ok_default"))
	prototest.QueryBench(b, Protocol, withQueryPort(f.addr.Port()), voice)
}

// TestQstatCrossCheck queries the same fake server with `quakestat -ts3` (the
// voice port as its port= argument) and with the Querier, one after the other,
// and compares players and max (qstat subtracts query clients too). qstat 2.17
// garbles names with escapes in them (its in-place replacement overlaps: "Test\s[EU]"
// comes out "Test [U]]"), so names are compared on a server whose name has none.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	plain := bytes.Replace(transcript(t, "ok_default"),
		[]byte(`virtualserver_name=Gameserver\sExporter\sTest\s[EU]`), []byte("virtualserver_name=Plain_[EU]"), 1)
	for name, out := range map[string][]byte{
		"ok_default":          transcript(t, "ok_default"),
		"ok_password_escapes": transcript(t, "ok_password_escapes"),
		"ok_no_query_count":   transcript(t, "ok_no_query_count"),
		"plain_name":          plain,
	} {
		t.Run(name, func(t *testing.T) {
			f := serve(t, out)
			qs := prototest.QstatJSON(t, fmt.Sprintf("-ts3,port=%d", voice.Port()), f.addr)
			if cmds := f.commands(t); len(cmds) < 2 || cmds[0] != "use port=9987" || cmds[1] != "serverinfo" {
				t.Errorf("qstat sent %q", cmds)
			}
			res, _ := prototest.QueryOK(t, Protocol, voice, withQueryPort(f.addr.Port()), 2*time.Second)
			if qs.Status != "online" || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %d/%d", qs, res.Players.Value, res.MaxPlayers.Value)
			}
			if name == "plain_name" && (qs.Name != res.Name || res.Name != "Plain_[EU]") {
				t.Errorf("qstat name %q, querier %q", qs.Name, res.Name)
			}
		})
	}
	// With players both send clientlist and leave its query clients out (names
	// without escapes: qstat garbles those).
	t.Run("players", func(t *testing.T) {
		list := "clid=1 cid=1 client_nickname=serveradmin client_type=1|clid=5 cid=2 client_nickname=Alice client_type=0|clid=6 cid=2 client_nickname=Bob client_type=0\n\rerror id=0 msg=ok\n\r"
		out := append(transcript(t, "ok_default"), list...)
		qs := prototest.QstatJSON(t, fmt.Sprintf("-ts3,port=%d", voice.Port()), serve(t, out).addr, "-P")
		s := withQueryPort(serve(t, out).addr.Port())
		s.Players = true
		res, _ := prototest.QueryOK(t, Protocol, voice, s, 2*time.Second)
		var theirs []string
		for _, p := range qs.Players {
			theirs = append(theirs, p.Name)
		}
		slices.Sort(theirs) // qstat lists them backwards
		if ours := prototest.ListNames(res); fmt.Sprint(ours, theirs) != "[Alice Bob] [Alice Bob]" {
			t.Errorf("players: qstat %q, querier %q", theirs, ours)
		}
	})
}
