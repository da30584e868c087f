package hostile

import "github.com/gameserver-exporter/gameserver_exporter/protocols/ventrilo"

// --- Ventrilo detailed status (qstat's ventrilo.c): encrypted header echoing
// the request's id, "KEY: value" lines; ventrilo.Answer seals the header ---

const ventriloStatus = "NAME: " + serverName + "\nAUTH: 0\nMAXCLIENTS: 8\nCLIENTCOUNT: 1\nCLIENT: CID=0,PING=20,SEC=5,NAME=a\n"

func ventriloReply(req []byte) []byte {
	return ventrilo.Answer(req, []byte(ventriloStatus), len(ventriloStatus))
}

// ventriloPrefix heads an answer declaring 256 data bytes: the random bytes
// behind it are the status text (or end it early: truncated).
func ventriloPrefix(req []byte) []byte { return ventrilo.Answer(req, nil, 256) }
