package farmingsimulator

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestQstat queries one fake web interface with quakestat -farmsim (code as its
// option parameter, -farmsim,code=...) and with the Querier: name, map and counts agree. quakestat
// sends HTTP/1.1 without a Host header, which net/http's server refuses, so this
// fake reads the request line itself.
func TestQstat(t *testing.T) {
	prototest.NeedQstat(t)
	feed := prototest.File(t, "fs22.xml")
	addr := prototest.TCP(t, func(c net.Conn) {
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			return
		}
		status, body := "403 Forbidden", []byte{}
		if f := strings.Fields(line); len(f) >= 2 && f[1] == "/feed/dedicated-server-stats.xml?code="+testCode {
			status, body = "200 OK", feed
		}
		fmt.Fprintf(c, "HTTP/1.1 %s\r\nContent-Type: text/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", status, len(body), body)
	})
	qs := prototest.QstatJSON(t, "-farmsim,code="+testCode, addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{Options: withCode(testCode)}, 2*time.Second)
	if qs.Name != res.Name || qs.Map != res.Map || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
		t.Errorf("querier %q %q %d/%d, qstat %+v", res.Name, res.Map, res.Players.Value, res.MaxPlayers.Value, qs)
	}
}
