package soldat

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const adminPassword = "s3cret admin"

// fake is a Soldat admin port as Rcon.pas runs it: the greeting, the password
// line, the welcome with the version, then REFRESHX answered with record, after
// the console lines in noise.
type fake struct {
	record []byte
	noise  string
}

func (f *fake) start(t testing.TB) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) {
		io.WriteString(c, greeting+"\r\n")
		r := bufio.NewReader(c)
		pw, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if strings.TrimRight(pw, "\r\n") != adminPassword {
			io.WriteString(c, "Invalid password.\r\n")
			return
		}
		io.WriteString(c, welcome+"\r\nList of commands available in the Soldat game Manual.\r\nServer Version: 1.8.0.1234\r\n")
		for {
			cmd, err := r.ReadString('\n')
			if err != nil {
				return
			}
			if strings.TrimRight(cmd, "\r\n") == "REFRESHX" {
				io.WriteString(c, f.noise)
				c.Write(f.record)
			}
		}
	})
}

func withPassword(pw string) protocols.Settings {
	return protocols.Settings{Options: prototest.OptionsOf(Options{Password: protocols.Secret(pw)})}
}

func TestQuery(t *testing.T) {
	f := &fake{record: vec(t, "refreshx_ctf"), noise: "[12:00:01] Major joined the game\r\n(Admin) hello\r\n"}
	s := withPassword(adminPassword)
	s.Players = true
	res, tr := prototest.QueryOK(t, Protocol, f.start(t), s, 2*time.Second)
	if res.Version != "1.8.0.1234" || res.Map != "ctf_Ash" || len(res.PlayerList) != 3 {
		t.Errorf("%+v", res)
	}
	prototest.CheckBots(t, res, 2, 1, true)
	if got := prototest.PhaseReasons(tr); got != "login:ok,info:ok" {
		t.Errorf("phases %s", got)
	}
	prototest.NoSecrets(t, prototest.MustNew(t, Protocol, withPassword(adminPassword)), tr, nil, adminPassword)
}

func TestPasswordFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pw")
	prototest.WriteFile(t, file, adminPassword+"\n")
	f := &fake{record: vec(t, "refreshx_empty")}
	s := protocols.Settings{Options: prototest.OptionsOf(Options{PasswordFile: file})}
	if res, _, err := prototest.QueryNew(t, Protocol, f.start(t), s, 2*time.Second); err != nil || res.Map != "dm_Bigfalls" {
		t.Errorf("%+v, %v", res, err)
	}
}

func TestOptionsErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pw")
	prototest.WriteFile(t, file, "x")
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"{password: a, password_file: " + file + "}":             "soldat password: ",
		`password: "a\nb"`:                                       "soldat password: a line break",
		"password_file: " + filepath.Join(t.TempDir(), "absent"): "soldat password: ",
		"encoding: koi8-r":                                       `soldat options: unknown encoding "koi8-r"`,
	})
}

// A wrong or missing password is a reason that says so.
func TestQueryAuth(t *testing.T) {
	f := &fake{record: vec(t, "refreshx_ctf")}
	addr := f.start(t)
	_, tr, err := prototest.QueryNew(t, Protocol, addr, withPassword("wrong"), 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "authentication failed") || prototest.PhaseReasons(tr) != "login:server_error" {
		t.Errorf("wrong password: %v, phases %s", err, prototest.PhaseReasons(tr))
	}
	_, _, err = prototest.QueryNew(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
	if !errors.Is(err, wire.ErrServer) || !strings.Contains(err.Error(), "password_file") {
		t.Errorf("no password: %v", err)
	}
	// A server that closes at once (its admin flood ban) or after the password.
	banned := prototest.TCP(t, func(c net.Conn) {})
	if _, _, err := prototest.QueryNew(t, Protocol, banned, withPassword(adminPassword), 2*time.Second); !errors.Is(err, wire.ErrTruncated) || !strings.Contains(err.Error(), "flood ban") {
		t.Errorf("closed at once: %v", err)
	}
	closer := prototest.TCP(t, func(c net.Conn) {
		io.WriteString(c, greeting+"\r\n")
		bufio.NewReader(c).ReadString('\n')
	})
	if _, _, err := prototest.QueryNew(t, Protocol, closer, withPassword(adminPassword), 2*time.Second); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("closed after the password: %v", err)
	}
}

func TestQueryFailures(t *testing.T) {
	good := vec(t, "refreshx_ctf")
	for _, c := range []struct {
		name   string
		f      *fake
		reason string
	}{
		{"record cut, then silence", &fake{record: good[:1000]}, "timeout"},
		{"endless console", &fake{record: good, noise: strings.Repeat("line\r\n", maxLines+1)}, "malformed"},
		{"long console line", &fake{record: good, noise: strings.Repeat("x", maxLine+1) + "\r\n"}, "too_large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, tr, err := prototest.QueryNew(t, Protocol, c.f.start(t), withPassword(adminPassword), 400*time.Millisecond)
			if wire.Reason(err) != c.reason || prototest.PhaseReasons(tr) != "login:ok,info:"+c.reason {
				t.Errorf("err %v, phases %s, want %s", err, prototest.PhaseReasons(tr), c.reason)
			}
		})
	}
	notSoldat := prototest.TCP(t, func(c net.Conn) { io.WriteString(c, "SSH-2.0-OpenSSH\r\n"); prototest.DrainLine(c) })
	if _, _, err := prototest.QueryNew(t, Protocol, notSoldat, withPassword(adminPassword), time.Second); wire.Reason(err) != "malformed" {
		t.Errorf("not Soldat: %v", err)
	}
}

func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{Protocol: Protocol, Name: "soldat", DefaultPort: 23073, Transport: "tcp"})
}
