package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// This file is the names the flow analysis knows of functions and methods
// (flowcalls.go evaluates the calls): how a qualified name is made
// canonical, the kinds of call, the functions it knows by canonical name,
// the methods that mean the same on any receiver, and the prefix that
// names a child process.

// canonical maps a qualified name to the name the tables use.
func canonical(name string) string {
	n := strings.TrimPrefix(name, "window.")
	n = strings.TrimPrefix(n, "globalThis.")
	n = strings.TrimPrefix(n, "Kernel.")
	n = strings.ReplaceAll(n, ".__dict__.", ".") // builtins.__dict__["exec"] is builtins.exec
	n = strings.TrimPrefix(n, "builtins.")
	n = strings.TrimPrefix(n, "__builtins__.")
	n = strings.TrimPrefix(n, "CORE::")
	n = strings.ReplaceAll(n, "::", ".")
	n = strings.ReplaceAll(n, "->", ".")
	n = strings.TrimPrefix(n, "CORE.GLOBAL.")
	n = strings.TrimPrefix(n, "CORE.")
	n = strings.TrimPrefix(n, "node.")
	if strings.HasPrefix(n, "child_process.") || strings.HasPrefix(n, "fs.") || strings.HasPrefix(n, "fs.promises.") {
		n = strings.TrimSuffix(strings.TrimSuffix(n, "Sync"), "Async")
	}
	return n
}

// Kinds of call.
const (
	callNone = iota
	callExecLang
	callExecShell
	callFetch
	callSend
	callDecode
	callRead
	callWrite
	callRemove
	callHome
	callJoin
	callOpen
	callImport
	callGetattr
	callChr
	callCopy
	callExpand
	callEnvGet
	callPath
	callGlob
	callMap
	callReverse
	callResolve
	callNumber
	callNamespace
	callIdentity
)

// calls are the functions the analysis knows, by canonical name.
var calls = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		// Execution of code in the program's own language, and of commands.
		"exec": callExecLang, "eval": callExecLang, "compile": callExecLang, "Function": callExecLang, "vm.runInThisContext": callExecLang,
		"vm.runInNewContext": callExecLang, "vm.Script": callExecLang, "setTimeout": callNone, "instance_eval": callExecLang,
		"class_eval": callExecLang, "assert": callNone,
		"os.system": callExecShell, "os.popen": callExecShell, "subprocess.run": callExecShell, "subprocess.call": callExecShell,
		"subprocess.Popen": callExecShell, "subprocess.check_output": callExecShell, "subprocess.check_call": callExecShell,
		"subprocess.getoutput": callExecShell, "subprocess.getstatusoutput": callExecShell, "commands.getoutput": callExecShell,
		"pty.spawn": callExecShell, "os.execv": callExecShell, "os.execvp": callExecShell, "os.execl": callExecShell, "os.execlp": callExecShell,
		"os.spawnv": callExecShell, "os.spawnl": callExecShell, "asyncio.create_subprocess_shell": callExecShell, "asyncio.create_subprocess_exec": callExecShell,
		"child_process.exec": callExecShell, "child_process.spawn": callExecShell, "child_process.execFile": callExecShell,
		"child_process.fork": callNone, "system": callExecShell, "spawn": callExecShell, "IO.popen": callExecShell, "Open3.capture2": callExecShell,
		"Open3.capture3": callExecShell, "Open3.popen3": callExecShell, "shell_exec": callExecShell, "passthru": callExecShell,
		"popen": callExecShell, "proc_open": callExecShell, "Start-Process": callExecShell, "execa": callExecShell, "execaSync": callExecShell,
		"shelljs.exec": callExecShell, "Bun.spawn": callExecShell, "Deno.Command": callExecShell,
		// Downloads and sends.
		"requests.get": callFetch, "requests.post": callFetch, "requests.put": callFetch, "requests.patch": callFetch, "requests.request": callFetch,
		"requests.delete": callFetch, "httpx.get": callFetch, "httpx.post": callFetch, "httpx.put": callFetch, "httpx.request": callFetch,
		"urllib.request.urlopen": callFetch, "urlopen": callFetch, "urllib.urlopen": callFetch, "urllib2.urlopen": callFetch,
		"urllib.request.Request": callSend, "urllib.request.urlretrieve": callFetch, "urlretrieve": callFetch, "aiohttp.ClientSession": callNone,
		"fetch": callFetch, "axios": callFetch, "axios.get": callFetch, "axios.post": callFetch, "axios.put": callFetch, "axios.request": callFetch,
		"http.get": callFetch, "https.get": callFetch, "http.request": callFetch, "https.request": callFetch, "got": callFetch, "got.post": callFetch,
		"needle.post": callFetch, "superagent.post": callFetch, "node-fetch": callFetch, "Net.HTTP.get": callFetch, "Net.HTTP.post": callFetch,
		"Net.HTTP.post_form": callFetch, "URI.open": callFetch, "HTTParty.get": callFetch, "HTTParty.post": callFetch, "Faraday.post": callFetch,
		"LWP.Simple.get": callFetch, "get": callNone, "getstore": callFetch, "file_get_contents": callRead, "curl_exec": callFetch,
		"Invoke-WebRequest": callFetch, "Invoke-RestMethod": callFetch, "iwr": callFetch, "irm": callFetch, "smtplib.SMTP": callNone,
		"socket.create_connection": callNone, "dns.resolve": callResolve, "dns.lookup": callResolve, "socket.gethostbyname": callResolve,
		"socket.gethostbyname_ex": callResolve, "socket.getaddrinfo": callResolve, "dns.resolver.resolve": callResolve,
		"dns.resolver.query": callResolve, "dns.resolve4": callResolve, "dns.resolve6": callResolve, "dns.resolveTxt": callResolve,
		"dns.resolveAny": callResolve, "dns.promises.lookup": callResolve, "dns.promises.resolve": callResolve,
		"dns.promises.resolveTxt": callResolve, "Resolv.getaddress": callResolve, "Resolv.getaddresses": callResolve,
		"Addrinfo.getaddrinfo": callResolve, "Socket.getaddrinfo": callResolve, "gethostbyname": callResolve,
		"dns_get_record": callResolve, "net.LookupHost": callResolve, "net.LookupIP": callResolve, "net.LookupTXT": callResolve,
		"System.Net.Dns.GetHostAddresses": callResolve, "System.Net.Dns.GetHostEntry": callResolve,
		// What yields a number.
		"round": callNumber, "int": callNumber, "float": callNumber, "abs": callNumber,
		"Math.round": callNumber, "Math.floor": callNumber, "Math.ceil": callNumber, "Math.trunc": callNumber,
		"parseInt": callNumber, "parseFloat": callNumber, "Number": callNumber,
		// Decoders.
		"base64.b64decode": callDecode, "base64.standard_b64decode": callDecode, "base64.urlsafe_b64decode": callDecode,
		"base64.b32decode": callDecode, "base64.b16decode": callDecode, "base64.a85decode": callDecode, "base64.b85decode": callDecode,
		"base64.decodebytes": callDecode, "binascii.unhexlify": callDecode, "binascii.a2b_hex": callDecode, "binascii.a2b_base64": callDecode,
		"bytes.fromhex": callDecode, "bytearray.fromhex": callDecode, "codecs.decode": callDecode, "zlib.decompress": callDecode,
		"gzip.decompress": callDecode, "bz2.decompress": callDecode, "lzma.decompress": callDecode, "marshal.loads": callDecode,
		"pickle.loads": callDecode, "atob": callDecode, "Buffer.from": callDecode, "Base64.decode64": callDecode,
		"Base64.strict_decode64": callDecode, "Base64.urlsafe_decode64": callDecode, "decode_base64": callDecode,
		"MIME.Base64.decode_base64": callDecode, "base64_decode": callDecode, "hex2bin": callDecode, "str_rot13": callDecode,
		"gzinflate": callDecode, "gzuncompress": callDecode, "strrev": callDecode, "pack": callDecode, "[convert].frombase64string": callDecode,
		"zlib.inflateSync": callDecode, "zlib.gunzipSync": callDecode, "unescape": callDecode, "decodeURIComponent": callNone,
		"String.fromCharCode": callChr, "chr": callChr, "String.fromCodePoint": callChr,
		// Files.
		"open": callOpen, "io.open": callOpen, "os.fdopen": callOpen, "codecs.open": callOpen, "File.open": callOpen, "fopen": callOpen,
		"fs.readFile": callRead, "fs.promises.readFile": callRead, "File.read": callRead, "IO.read": callRead, "File.readlines": callRead,
		"Get-Content": callRead, "gc": callRead, "cat": callRead, "File.binread": callRead,
		"fs.writeFile": callWrite, "fs.appendFile": callWrite, "fs.promises.writeFile": callWrite, "fs.promises.appendFile": callWrite,
		"File.write": callWrite, "IO.write": callWrite, "file_put_contents": callWrite, "Set-Content": callWrite, "Add-Content": callWrite,
		"Out-File": callWrite, "os.symlink": callCopy, "fs.symlink": callCopy, "fs.copyFile": callCopy, "fs.cp": callCopy,
		"shutil.copy": callCopy, "shutil.copy2": callCopy, "shutil.copyfile": callCopy, "shutil.copytree": callCopy, "shutil.move": callCopy,
		"FileUtils.cp": callCopy, "Copy-Item": callCopy, "FileUtils.cp_r": callCopy, "copy": callNone,
		"shutil.rmtree": callRemove, "os.removedirs": callRemove, "fs.rm": callRemove, "fs.rmdir": callRemove, "rimraf": callRemove,
		"fse.remove": callRemove, "fse.removeSync": callRemove, "FileUtils.rm_rf": callRemove, "FileUtils.rm_r": callRemove,
		"FileUtils.remove_dir": callRemove, "rmtree": callRemove, "remove_tree": callRemove, "File.Path.rmtree": callRemove,
		"Remove-Item": callRemove, "del": callNone,
		// Paths.
		"pathlib.Path.home": callHome, "Path.home": callHome, "site.getusersitepackages": callHome, "os.homedir": callHome, "Dir.home": callHome, "os.path.join": callJoin,
		"path.join": callJoin, "path.resolve": callJoin, "File.join": callJoin, "Join-Path": callJoin, "posixpath.join": callJoin,
		"os.path.expanduser": callExpand, "File.expand_path": callExpand, "os.path.expandvars": callExpand, "pathlib.Path": callPath,
		"Path": callPath, "pathlib.PurePath": callPath, "os.getenv": callEnvGet, "os.environ.get": callEnvGet, "getenv": callEnvGet,
		"ENV.fetch": callEnvGet, "os.path.abspath": callPath, "os.path.realpath": callPath, "os.path.normpath": callPath,
		// Names computed at run time.
		"__import__": callImport, "importlib.import_module": callImport, "require": callImport, "import": callImport, "getattr": callGetattr,
		"Reflect.get": callGetattr, "send": callNone, "globals": callNamespace, "locals": callNamespace, "vars": callNamespace,
		"glob.glob": callGlob, "glob.iglob": callGlob, "map": callMap, "reverse": callReverse,
		// Who and where the program runs: the host's name, the user's
		// (the shell's hostname and whoami).
		"socket.gethostname": callIdentity, "platform.node": callIdentity, "getpass.getuser": callIdentity,
		"os.getlogin": callIdentity, "os.hostname": callIdentity, "os.userInfo": callIdentity, "Socket.gethostname": callIdentity,
		"Etc.getlogin": callIdentity, "os.Hostname": callIdentity, "user.Current": callIdentity, "socket.getfqdn": callIdentity,
		// Go's standard library.
		"os.UserHomeDir": callHome, "filepath.Join": callJoin, "path.Join": callJoin, "os.ReadFile": callRead,
		"ioutil.ReadFile": callRead, "os.WriteFile": callWrite, "ioutil.WriteFile": callWrite, "os.Getenv": callEnvGet,
		"os.LookupEnv": callEnvGet, "os.ExpandEnv": callExpand, "http.Get": callFetch, "http.Post": callFetch,
		"http.PostForm": callFetch, "http.NewRequest": callSend, "http.NewRequestWithContext": callSend, "exec.Command": callExecShell,
		"exec.CommandContext": callExecShell, "os.RemoveAll": callRemove, "base64.StdEncoding.DecodeString": callDecode,
		"base64.URLEncoding.DecodeString": callDecode, "base64.RawStdEncoding.DecodeString": callDecode, "hex.DecodeString": callDecode,
	}
}}

// procPrefix names a child process the program started: an interpreter
// waiting for code on its input.
const procPrefix = "\x00proc:"

// valueMethods are methods that mean the same whatever they are called on.
var valueMethods = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{"downloadstring": true, "downloaddata": true, "downloadfile": true, "uploadstring": true,
		"uploadfile": true, "uploaddata": true, "uploadvalues": true, "sendall": true, "sendto": true, "getstring": true,
		"invokescript": true, "create": true, "read_text": true, "write_text": true, "read_bytes": true, "write_bytes": true}
}}

// riskyNames are the functions that run or load code, open the network or
// destroy files, in the spellings the analysed languages give them.
var riskyNames = []string{"system", "popen", "exec", "eval", "spawn", "call", "run", "check_output", "check_call", "getoutput",
	"getstatusoutput", "compile", "__import__", "import_module", "open", "remove", "rmtree", "unlink", "urlopen", "connect",
	"fork", "kill", "execsync", "execfile", "spawnsync", "load", "loads", "require", "function", "settimeout", "setinterval",
	"fetch", "xmlhttprequest", "websocket", "sendbeacon", "urlretrieve"}

// prefixOfRisky reports whether the known start of a built name could
// still spell one of riskyNames: "" or "sy" could, "load_" could not.
func prefixOfRisky(known string) bool {
	k := strings.ToLower(known)
	for _, n := range riskyNames {
		if strings.HasPrefix(n, k) || strings.HasPrefix(k, n) && (len(k) == len(n) || !isIdentByte(k[len(n)])) {
			return true
		}
	}
	return false
}

// digits reports whether s is a run of ASCII digits: an index, not a name.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// isIdentByte reports a byte that continues an identifier.
func isIdentByte(c byte) bool {
	return isLetter(c) || '0' <= c && c <= '9' || c == '_'
}
