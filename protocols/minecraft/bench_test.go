package minecraft

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// benchJSON is a typical modern status: a chat component MOTD, a sample, and a
// favicon of 8 KiB that the decoder must skip without copying.
var benchJSON = strings.Replace(statusJSON, "iVBORw0KGgo", strings.Repeat("iVBORw0KGgo", 750), 1)

func BenchmarkDecodeStatus(b *testing.B) {
	frame := statusFrame(benchJSON)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	br := bytes.NewReader(frame)
	r := bufio.NewReader(br)
	for b.Loop() {
		br.Reset(frame)
		r.Reset(br)
		if _, err := readResponse(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeLegacy(b *testing.B) {
	prototest.DecodeBench(b, legacyKick("§1\x00127\x001.21.1\x00§aA §lPaper§r server\x0012\x00100")[3:], func(kick []byte) error {
		_, err := decodeLegacyKick(kick)
		return err
	})
}

// BenchmarkQuery is a full exchange over loopback TCP: status and ping.
func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, slpServer(b, statusFrame(benchJSON), 0, true, nil))
}
