package minecraft

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// segment is one direction's bytes in a recorded exchange.
type segment struct {
	client bool // '>' client to server, '<' server to client
	data   []byte
}

// loadExchange reads a hand-built vector (see testdata/README.md): lines of hex
// bytes after '>' (client) or '<' (server), '#' comments. Consecutive lines of
// one direction are merged into one segment.
func loadExchange(t testing.TB, name string) []segment {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var segs []segment
	for i, line := range strings.Split(string(raw), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		client := line[0] == '>'
		if !client && line[0] != '<' {
			t.Fatalf("%s:%d: a line starts with > or <", name, i+1)
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(line[1:]), ""))
		if err != nil {
			t.Fatalf("%s:%d: %v", name, i+1, err)
		}
		if n := len(segs); n > 0 && segs[n-1].client == client {
			segs[n-1].data = append(segs[n-1].data, b...)
		} else {
			segs = append(segs, segment{client: client, data: b})
		}
	}
	return segs
}

// side concatenates one direction of an exchange.
func side(segs []segment, client bool) []byte {
	var b []byte
	for _, s := range segs {
		if s.client == client {
			b = append(b, s.data...)
		}
	}
	return b
}

// vectorPayload is the ping payload the vectors were written with.
const vectorPayload = 1700000000000

// sentHandshake is a decoded Handshake packet, for checking what the client sent.
type sentHandshake struct {
	Version int32
	Host    string
	Port    uint16
	Next    int32
}

// readHandshake reads a Handshake packet the way a server does.
func readHandshake(r byteReader) (sentHandshake, error) {
	id, data, err := readPacket(r, 1024)
	if err != nil {
		return sentHandshake{}, err
	}
	if id != 0 {
		return sentHandshake{}, fmt.Errorf("handshake id %d", id)
	}
	br := bytes.NewReader(data)
	var h sentHandshake
	if h.Version, err = readVarInt(br, "version"); err != nil {
		return h, err
	}
	n, err := readVarInt(br, "host length")
	if err != nil || n < 0 || int(n) > br.Len() {
		return h, fmt.Errorf("host length %d: %v", n, err)
	}
	host := make([]byte, n)
	io.ReadFull(br, host)
	h.Host = string(host)
	if err := binary.Read(br, binary.BigEndian, &h.Port); err != nil {
		return h, err
	}
	if h.Next, err = readVarInt(br, "next state"); err != nil {
		return h, err
	}
	if br.Len() != 0 {
		return h, fmt.Errorf("%d bytes after the handshake", br.Len())
	}
	return h, nil
}

// readStatusRequest reads a handshake and the status request after it.
func readStatusRequest(r *bufio.Reader) (sentHandshake, error) {
	h, err := readHandshake(r)
	if err != nil {
		return h, err
	}
	if h.Next != 1 {
		return h, fmt.Errorf("next state %d", h.Next)
	}
	id, data, err := readPacket(r, 16)
	if err != nil || id != 0 || len(data) != 0 {
		return h, fmt.Errorf("status request: id %d, %d bytes, %v", id, len(data), err)
	}
	return h, nil
}

// statusFrame builds a Status Response packet around js.
func statusFrame(js string) []byte {
	s := appendVarInt([]byte{idStatus}, int32(len(js)))
	s = append(s, js...)
	return append(appendVarInt(nil, int32(len(s))), s...)
}

// legacyKick builds a 0xFF kick packet around text: its UTF-16BE code units,
// counted.
func legacyKick(text string) []byte {
	u := utf16.Encode([]rune(text))
	b := []byte{0xFF, byte(len(u) >> 8), byte(len(u))}
	for _, c := range u {
		b = binary.BigEndian.AppendUint16(b, c)
	}
	return b
}
