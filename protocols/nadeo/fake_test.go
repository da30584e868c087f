package nadeo

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// fake is a GbxRemote server: the handshake, then answers from testdata by
// method name (Authenticate checks login and password; system.multicall runs
// its calls, as qstat sends them). Fields change what it does.
type fake struct {
	login, password string
	version         int               // 1 or 2 (default)
	answers         map[string]string // method -> testdata name
	callbacks       int               // callbacks sent before every answer
	handshake       []byte            // replaces the handshake
	mu              sync.Mutex
	calls           []string // methods called, in order (read with called)
}

func newFake(t testing.TB, game string) *fake {
	f := &fake{login: "User", password: "User", version: 2, answers: map[string]string{
		"GetServerName": "name", "GetMaxPlayers": "maxplayers", "GetPlayerList": "players",
		"GetServerOptions": "options_forever", // qstat's call
	}}
	switch game {
	case "forever":
		f.answers["GetVersion"], f.answers["GetCurrentChallengeInfo"] = "version_forever", "challenge_forever"
	case "maniaplanet":
		f.answers["GetVersion"], f.answers["GetCurrentMapInfo"] = "version_maniaplanet", "map_maniaplanet"
	}
	return f
}

func (f *fake) start(t testing.TB) netip.AddrPort {
	return prototest.TCP(t, func(c net.Conn) { f.serve(t, c) })
}

func (f *fake) serve(t testing.TB, c net.Conn) {
	hs := f.handshake
	if hs == nil {
		hs = hello(fmt.Sprintf("GBXRemote %d", f.version))
	}
	c.Write(hs)
	for {
		n := 8
		if f.version == 1 {
			n = 4
		}
		hdr := make([]byte, n)
		if _, err := io.ReadFull(c, hdr); err != nil {
			return
		}
		size := binary.LittleEndian.Uint32(hdr)
		if size > 1<<20 {
			return
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(c, body); err != nil {
			return
		}
		var h uint32
		if f.version == 2 {
			h = binary.LittleEndian.Uint32(hdr[4:])
		}
		root, err := parseXML(body)
		if err != nil {
			return
		}
		method := strings.TrimSpace(root.child("methodName").text)
		f.mu.Lock()
		f.calls = append(f.calls, method)
		f.mu.Unlock()
		var params []*node
		for _, p := range root.child("params").childrenNamed("param") {
			params = append(params, p.child("value"))
		}
		var out []byte
		if method == "system.multicall" {
			out = f.multicall(t, params)
		} else {
			out = f.answer(t, method, params)
		}
		for i := range f.callbacks {
			cb := fmt.Sprintf(`<?xml version="1.0"?><methodCall><methodName>TrackMania.PlayerChat</methodName><params><param><value><i4>%d</i4></value></param></params></methodCall>`, i)
			c.Write(f.frame(uint32(i), []byte(cb)))
		}
		c.Write(f.frame(h, out))
	}
}

func (f *fake) frame(h uint32, b []byte) []byte {
	if f.version == 1 {
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
	}
	return frame(uint32(len(b)), h, b)
}

// hello is a handshake: the length (uint32, little-endian) and s.
func hello(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
}

func frame(size, h uint32, b []byte) []byte {
	out := binary.LittleEndian.AppendUint32(nil, size)
	out = binary.LittleEndian.AppendUint32(out, h)
	return append(out, b...)
}

// answer is the methodResponse to one call.
func (f *fake) answer(t testing.TB, method string, params []*node) []byte {
	if method == "Authenticate" {
		if len(params) != 2 || str(params[0]) != f.login || str(params[1]) != f.password {
			return vec(t, "fault_auth")
		}
		return vec(t, "auth_ok")
	}
	name, ok := f.answers[method]
	if !ok {
		return []byte(`<?xml version="1.0"?><methodResponse><fault><value><struct><member><name>faultCode</name><value><int>-506</int></value></member><member><name>faultString</name><value><string>Method '` + method + `' not found.</string></value></member></struct></value></fault></methodResponse>`)
	}
	return vec(t, name)
}

// multicall answers system.multicall: an array holding, per call, a one-value
// array of its result, one XML line per line of the result as qstat reads it.
func (f *fake) multicall(t testing.TB, params []*node) []byte {
	calls, _ := items(params[0])
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<methodResponse>\n<params>\n<param><value><array><data>\n")
	for _, c := range calls {
		m := members(c)
		var ps []*node
		if list, ok := items(m["params"]); ok {
			ps = list
		}
		resp := string(f.answer(t, str(m["methodName"]), ps))
		start, end := strings.Index(resp, "<param>"), strings.LastIndex(resp, "</param>")
		if start < 0 || end < 0 {
			continue
		}
		b.WriteString("<value><array><data>\n" + resp[start+len("<param>"):end] + "\n</data></array></value>\n")
	}
	b.WriteString("</data></array></value></param>\n</params>\n</methodResponse>\r\n")
	return []byte(b.String())
}

// called returns the methods called so far, space-separated.
func (f *fake) called() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.calls, " ")
}
