package teamspeak3

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// transcript reads testdata/NAME.txt as the server sends it: each line ended by
// "\n\r", TeamSpeak's line terminator.
func transcript(t testing.TB, name string) []byte {
	t.Helper()
	return bytes.ReplaceAll(prototest.File(t, name+".txt"), []byte("\n"), []byte("\n\r"))
}

// The client sends use with the target's voice port, then serverinfo, nothing else.
func TestCommandsSent(t *testing.T) {
	var sent []string
	s := session{next: transcriptLines(transcript(t, "ok_default")), send: func(c string) error { sent = append(sent, c); return nil }}
	if _, err := s.run(9988); err != nil {
		t.Fatal(err)
	}
	if want := []string{"use port=9988\n", "serverinfo\n"}; strings.Join(sent, "") != strings.Join(want, "") {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		``:                      ``,
		`plain`:                 `plain`,
		`a\sb\pc\/d\\e`:         `a b|c/d\e`,
		`\a\b\f\n\r\t\v`:        "\a\b\f\n\r\t\v",
		`\\s`:                   `\s`, // an escaped backslash, then a plain s
		`unknown\qescape`:       `unknown\qescape`,
		`trailing\`:             `trailing\`,
		"latin1 \xe9\\s":        "latin1 é ",
		`\s\s`:                  `  `,
		`[URL]x[\/URL]\p\p\s\s`: `[URL]x[/URL]||  `,
	} {
		if got := unescape([]byte(in)); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePairs(t *testing.T) {
	got, err := parsePairs([]byte("a=1  b c=x=y|a=2 d=3"))
	prototest.NoError(t, err)
	want := []protocols.KV{{Key: "a", Value: "1"}, {Key: "b"}, {Key: "c", Value: "x=y"}}
	if !slices.Equal(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	many := bytes.Repeat([]byte("k=v "), maxPairs+1)
	if _, err := parsePairs(many); !errors.Is(err, wire.ErrTooLarge) {
		t.Errorf("%d pairs: err = %v, want too large", maxPairs+1, err)
	}
}

// Bounds: an endless line, endless data lines and endless blank lines all stop.
func TestDecodeBounds(t *testing.T) {
	greet := "TS3\n\rWelcome\n\rerror id=0 msg=ok\n\r"
	for name, tc := range map[string]struct {
		out  string
		want error
	}{
		"long line":   {greet + "virtualserver_name=" + strings.Repeat("x", maxLine) + "\n\r", wire.ErrTooLarge},
		"many lines":  {greet + strings.Repeat("virtualserver_name=x\n\r", maxLines+1), wire.ErrMalformed},
		"many blanks": {"\n\r\n\r" + strings.Repeat("\n", maxLines+1), wire.ErrMalformed},
		"empty":       {"", wire.ErrTruncated},
	} {
		if _, err := decodeTranscript([]byte(tc.out), 9987); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
}

// A hostile message is quoted, never printed raw into logs.
func TestServerErrorQuoted(t *testing.T) {
	_, err := decodeTranscript([]byte("error id=5 msg=\x1b[31mred\\n\xff\n\r"), 9987)
	if msg := err.Error(); !errors.Is(err, wire.ErrServer) || strings.Contains(msg, "\x1b") || strings.Contains(msg, "\n") {
		t.Errorf("err = %q", err)
	}
}

// More query clients than clients (a server mid-update) is no negative count.
func TestPlayersNeverNegative(t *testing.T) {
	res, err := decodeServerInfo([]byte("virtualserver_clientsonline=1 virtualserver_queryclientsonline=3"))
	if err != nil || res.Players != protocols.Known(0) {
		t.Errorf("%+v, %v", res, err)
	}
}

// clientlist's voice clients are the players, by nickname unescaped; its query
// clients (this probe among them) are not; a refusal quotes the server, and an
// entry that is neither kind of client is malformed.
func TestDecodeClients(t *testing.T) {
	for name, want := range map[string]string{
		"clientlist_mixed":       `["Zoë [EU]" ? ? ""] ["pipe|/slash" ? ? ""]`,
		"clientlist_query_only":  `[]`,
		"clientlist_permissions": `server_error: clientlist: error id=2568: "insufficient client permissions"`,
		"clientlist_bad_entry":   `malformed: clientlist entry without client_type 0 or 1 and a nickname: "clid=1 cid=1 client_database_id=1 client_nickname=NoType"`,
	} {
		if got := prototest.PlayersText(decodeClientsTranscript(transcript(t, name))); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if got := prototest.PlayersText(decodeClientsTranscript([]byte("error id=0 msg=ok\n\r"))); got != "[]" {
		t.Errorf("no data line: %s, want []", got)
	}
	many := strings.Repeat("client_nickname=x client_type=0|", maxClients) + "client_nickname=y client_type=0\n\rerror id=0 msg=ok\n\r"
	long := "client_nickname=" + strings.Repeat("x", maxListLine) + " client_type=0\n\r"
	for _, out := range []string{many, long} {
		if _, err := decodeClientsTranscript([]byte(out)); !errors.Is(err, wire.ErrTooLarge) {
			t.Errorf("%d bytes: err = %v, want too large", len(out), err)
		}
	}
}

// FuzzDecodeClients: no clientlist answer panics the decoder, every error names
// one reason, and the names are UTF-8.
func FuzzDecodeClients(f *testing.F) {
	var seeds [][]byte
	for _, name := range []string{"clientlist_mixed", "clientlist_query_only", "clientlist_permissions", "clientlist_bad_entry"} {
		seeds = append(seeds, transcript(f, name))
	}
	prototest.FuzzPlayers(f, seeds, decodeClientsTranscript)
}

// FuzzDecodeTranscript checks that no server output panics the exchange, that
// every error names one reason, and that a result has sane counts and UTF-8.
func FuzzDecodeTranscript(f *testing.F) {
	var seeds [][]byte
	for _, name := range prototest.Names(f, ".expected.json") {
		seeds = append(seeds, transcript(f, name))
	}
	prototest.FuzzDecoder(f, seeds, func(b []byte) (*protocols.Result, error) { return decodeTranscript(b, 9987) })
}

func BenchmarkDecodeTranscript(b *testing.B) {
	out := transcript(b, "ok_default")
	prototest.DecodeBench(b, nil, func([]byte) error { _, err := decodeTranscript(out, 9987); return err })
}

// replay is a session against a recorded server output (what the server sends,
// in order); the commands the client would send are dropped.
func replay(b []byte) session {
	return session{next: transcriptLines(b), send: func(string) error { return nil }}
}

// decodeTranscript runs the exchange against a recording.
func decodeTranscript(b []byte, port uint16) (*protocols.Result, error) { return replay(b).run(port) }

// decodeClientsTranscript runs clientlist against a recorded answer to it.
func decodeClientsTranscript(b []byte) ([]protocols.Player, error) { return replay(b).clients() }

// transcriptLines serves the lines of a recorded server output, the way the
// socket would: past its end is ErrTruncated, a line over the limit ErrTooLarge.
func transcriptLines(b []byte) func(int) ([]byte, error) {
	return func(limit int) ([]byte, error) {
		if len(b) == 0 {
			return nil, fmt.Errorf("%w: the server's output ends early", wire.ErrTruncated)
		}
		l, rest, found := bytes.Cut(b, []byte{'\n'})
		if len(l) > limit {
			return nil, fmt.Errorf("%w: line longer than %d bytes", wire.ErrTooLarge, limit)
		}
		if !found {
			rest = nil
		}
		b = rest
		return l, nil
	}
}
