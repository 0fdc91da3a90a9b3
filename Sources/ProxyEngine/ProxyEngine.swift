// ProxyEngine: the only module where C types (libevent, OpenSSL) live.
import CEventTLS
