package prototest

import (
	"fmt"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// echoProtocol asks "ping" and takes any reply starting with "name=" as the
// server's name; a reply "bad" is malformed.
var echoProtocol = protocols.Protocol{Name: "echo", Transport: "udp", New: func(s protocols.Settings) (protocols.Querier, error) {
	return &protocols.UDPExchange[string]{Retries: s.Retries, Request: []byte("ping"),
		Decode: func(b []byte) (string, error) {
			if len(b) < 5 || string(b[:5]) != "name=" {
				return "", fmt.Errorf("%w: %q", wire.ErrMalformed, b)
			}
			return string(b[5:]), nil
		},
		Result: func(name string, tr *wire.Trace) *protocols.Result {
			tr.Log("decoded " + name)
			return &protocols.Result{Name: name, Info: []protocols.KV{{Key: "k", Value: "v"}}}
		}}, nil
}}

func TestQueryNewAnswering(t *testing.T) {
	res, tr, err := QueryNew(t, echoProtocol, Answering(t, []byte("ping"), []byte("name=srv")), protocols.Settings{}, 2*time.Second)
	if err != nil || res.Name != "srv" {
		t.Fatalf("%+v, %v", res, err)
	}
	if got := PhaseReasons(tr); got != "info:ok" {
		t.Errorf("phases %q", got)
	}
	if !Logged(tr, "decoded srv") || Logged(tr, "nothing like it") {
		t.Error("Logged does not find what the trace holds")
	}
	if InfoOf(res)["k"] != "v" {
		t.Errorf("info %v", InfoOf(res))
	}
	CheckInfoHas(t, res, map[string]string{"k": "v"})
	e := &errorCounter{TB: t}
	CheckInfoHas(e, res, map[string]string{"k": "w", "absent": ""})
	if e.n != 2 {
		t.Errorf("%d info mismatches found, want 2", e.n)
	}
}

func TestReplyFailures(t *testing.T) {
	ReplyFailures(t, echoProtocol, []byte("ping"), protocols.Settings{},
		ReplyFailure{Name: "malformed", Replies: [][]byte{[]byte("bad")}, Want: wire.ErrMalformed},
		ReplyFailure{Name: "silent", D: 200 * time.Millisecond, Want: wire.ErrTimeout},
	)
}

// fatalCounter records Fatal calls instead of ending the test.
type fatalCounter struct {
	testing.TB
	n int
}

func (f *fatalCounter) Fatal(...any)          { f.n++ }
func (f *fatalCounter) Fatalf(string, ...any) { f.n++ }

func TestWantedError(t *testing.T) {
	trunc := fmt.Errorf("x: %w", wire.ErrTruncated)
	for _, c := range []struct {
		err, want error
		ends      bool
		fatal     int
	}{
		{nil, nil, false, 0},
		{trunc, wire.ErrTruncated, true, 0},
		{trunc, nil, false, 1},              // an error not wanted
		{nil, wire.ErrTruncated, true, 1},   // a wanted error missing
		{trunc, wire.ErrMalformed, true, 1}, // another error
	} {
		f := &fatalCounter{TB: t}
		if ends := WantedError(f, c.err, c.want); ends != c.ends || f.n != c.fatal {
			t.Errorf("WantedError(%v, %v) = %v with %d failures, want %v with %d", c.err, c.want, ends, f.n, c.ends, c.fatal)
		}
	}
}
