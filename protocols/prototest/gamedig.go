package prototest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// GamedigState is what gamedig's query returns, as far as the comparisons read it.
type GamedigState struct {
	Name       string       `json:"name"`
	Map        string       `json:"map"`
	Password   GamedigBool  `json:"password"`
	NumPlayers GamedigCount `json:"numplayers"`
	MaxPlayers GamedigCount `json:"maxplayers"`
	Version    string       `json:"version"`
	Players    []struct {
		Name string `json:"name"`
	} `json:"players"`
	Bots []struct {
		Name string `json:"name"`
	} `json:"bots"`
}

// GamedigCount is a count in gamedig's state: a number, or a number in a string
// (its teamspeak3 copies serverinfo's text as it came).
type GamedigCount int

func (c *GamedigCount) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	v, err := n.Int64()
	*c = GamedigCount(v)
	return err
}

// GamedigBool is a flag in gamedig's state: a bool, or a string its quake3
// copies from the server ("1", "0").
type GamedigBool bool

func (f *GamedigBool) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = v == true || v == "1" || v == "true"
	return nil
}

// gamedigEntry is the package's entry point under GAMEDIG_DIR (a directory
// where `npm install gamedig` ran), or "" when it is not there.
func gamedigEntry() string {
	dir := os.Getenv("GAMEDIG_DIR")
	if dir == "" {
		return ""
	}
	p := filepath.Join(dir, "node_modules", "gamedig", "lib", "index.js")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	if _, err := exec.LookPath("node"); err != nil {
		return ""
	}
	return p
}

// gamedigScript runs one GameDig.query with the options given as JSON and prints
// the state as JSON, or the error on stderr.
const gamedigScript = `
const { GameDig } = await import(process.env.GAMEDIG_ENTRY);
try {
  console.log(JSON.stringify(await GameDig.query(JSON.parse(process.argv[1]))));
} catch (e) {
  console.error(String(e && e.message || e));
  process.exit(1);
}
`

// Gamedig queries a loopback fake with gamedig (npm, run by node) as the reference
// client: game is gamedig's game id, port the port it sends to (givenPortOnly),
// opts more query options (a token). It skips the test unless GAMEDIG_DIR names a
// directory where `npm install gamedig` ran. ok is false when gamedig failed
// (its message in msg).
func Gamedig(t testing.TB, game string, port uint16, opts map[string]any) (st GamedigState, msg string, ok bool) {
	t.Helper()
	entry := gamedigEntry()
	if entry == "" {
		t.Skip("gamedig is not installed: set GAMEDIG_DIR to a directory where `npm install gamedig` ran to compare with it")
	}
	q := map[string]any{"type": game, "host": "127.0.0.1", "port": port, "givenPortOnly": true, "maxRetries": 1, "socketTimeout": 2000, "attemptTimeout": 5000}
	for k, v := range opts {
		q[k] = v
	}
	arg, _ := json.Marshal(q)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--input-type=module", "-e", gamedigScript, string(arg))
	cmd.Env = append(os.Environ(), "GAMEDIG_ENTRY="+entry)
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		return st, string(ee.Stderr), false
	}
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("gamedig output %q: %v", out, err)
	}
	return st, "", true
}
