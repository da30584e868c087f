package idtech

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

var errTestNotReply = fmt.Errorf("%w: not a test reply", wire.ErrMalformed)

func TestDecodeQ3(t *testing.T) {
	const oob = "\xff\xff\xff\xff"
	for _, tc := range []struct {
		name, in    string
		response    string
		pairs, rest string
		newline     bool
		err         error // a sentinel errors.Is must find
	}{
		{name: "status", in: oob + "statusResponse\n\\a\\b\n1 2 \"x\"\n", response: StatusResponse, pairs: "[{a b}]", rest: "1 2 \"x\"\n", newline: true},
		{name: "01 prefix, upper case", in: oob + "\x01STATUSRESPONSE \r\n\\a\\b", response: StatusResponse, pairs: "[{a b}]"},
		{name: "info, junk quote", in: oob + "infoResponse\n\\a\\b\"", response: InfoResponse, pairs: "[{a b}]"},
		{name: "status keeps a trailing quote", in: oob + "statusResponse\n\\a\\b\"", response: StatusResponse, pairs: "[{a b\"}]"},
		{name: "keyword then backslash", in: oob + "statusResponse\\a\\b\n", response: StatusResponse, pairs: "[{a b}]", newline: true},
		{name: "blank info line", in: oob + "statusResponse\n \n1 2 \"x\"", response: StatusResponse, pairs: "[]", rest: "1 2 \"x\""},
		{name: "folded duplicate keys", in: oob + "statusResponse\n\\Key\\1\\KEY\\2", response: StatusResponse, pairs: "[{Key 1}]"},
		{name: "empty", in: "", err: errTestNotReply},
		{name: "no marker", in: "\xff\xff\xffstatusResponse\n\\a\\b", err: errTestNotReply},
		{name: "other keyword", in: oob + "print\nhello", err: errTestNotReply},
		{name: "longer keyword", in: oob + "statusResponseX\n\\a\\b", err: errTestNotReply},
		{name: "keyword only", in: oob + "statusResponse", err: wire.ErrTruncated},
		{name: "keyword and blanks", in: oob + "infoResponse \t\r", err: wire.ErrTruncated},
		{name: "no backslash", in: oob + "statusResponse\nhostname x\n", err: wire.ErrMalformed},
		{name: "too large", in: oob + "statusResponse\n\\a\\b\n" + strings.Repeat("x", MaxDatagram), err: wire.ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, rest, err := DecodeQ3([]byte(tc.in), errTestNotReply, wire.Latin1)
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				if tc.err != errTestNotReply && errors.Is(err, errTestNotReply) {
					t.Errorf("err = %v wraps the not-a-reply sentinel", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Response != tc.response || fmt.Sprint(r.Pairs) != tc.pairs || string(rest) != tc.rest || r.EndsWithNewline != tc.newline {
				t.Errorf("got %s %v rest %q newline %v, want %+v", r.Response, r.Pairs, rest, r.EndsWithNewline, tc)
			}
		})
	}
}
