package hostile

import (
	"encoding/binary"
	"fmt"
)

// --- Nadeo GbxRemote (qstat's tm.c, the dedicated server's XML-RPC): a
// length-prefixed "GBXRemote 2" handshake, then calls and answers framed by a
// length and a handle ---

var nadeoGreeting = append(binary.LittleEndian.AppendUint32(nil, 11), "GBXRemote 2"...)

// nadeoFrame frames an answer body with the handle of the n-th call.
func nadeoFrame(n int, body string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	b = binary.LittleEndian.AppendUint32(b, 0x80000000+uint32(n))
	return append(b, body...)
}

func nadeoValue(v string) string {
	return `<?xml version="1.0"?><methodResponse><params><param><value>` + v + `</value></param></params></methodResponse>`
}

func nadeoStruct(kv ...string) string {
	s := "<struct>"
	for i := 0; i+1 < len(kv); i += 2 {
		s += fmt.Sprintf("<member><name>%s</name><value>%s</value></member>", kv[i], kv[i+1])
	}
	return nadeoValue(s + "</struct>")
}

// nadeoReply answers Authenticate and, ahead of the client asking (the fake
// servers answer one read), the five calls that follow it.
func nadeoReply([]byte) []byte {
	var b []byte
	for i, body := range []string{
		nadeoValue("<boolean>1</boolean>"),
		nadeoValue("<string>" + serverName + "</string>"),
		nadeoStruct("CurrentValue", "<i4>32</i4>", "NextValue", "<i4>32</i4>"),
		nadeoStruct("Name", "<string>ManiaPlanet</string>", "Version", "<string>3.3.0</string>"),
		nadeoStruct("Name", "<string>Hostile Map</string>"),
		nadeoValue("<array><data><value><struct><member><name>NickName</name><value>a</value></member></struct></value></data></array>"),
	} {
		b = append(b, nadeoFrame(i, body)...)
	}
	return b
}

// nadeoPrefix heads a 248-byte answer to Authenticate: the random bytes behind
// it are its XML (or end it early: truncated).
func nadeoPrefix([]byte) []byte {
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 248), 0x80000000)
}
