#include "power/http_error.h"

#include <httplib.h>

#include <cstdio>

namespace sb::power {

std::string HttpErrorSentence(httplib::Error error, const std::string& base_url,
                              double timeout_sec) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%g s", timeout_sec);
  const std::string at = " (" + base_url + ")";
  switch (error) {
    case httplib::Error::Connection:
      return "cannot connect" + at +
             ": nothing listens there, or the host is unreachable; check the host and port";
    case httplib::Error::ConnectionTimeout:
      return "no connection within " + std::string(seconds) + at;
    case httplib::Error::Read:
      return "no answer within " + std::string(seconds) + ", or the connection closed" + at;
    case httplib::Error::Write:
      return "the request could not be sent; the connection closed" + at;
    case httplib::Error::SSLConnection:
      return "the TLS handshake failed" + at + "; is it https? (scheme=http for plain HTTP)";
    case httplib::Error::SSLLoadingCerts:
      return "the CA certificates could not be loaded (ca=FILE)" + at;
    case httplib::Error::SSLServerVerification:
      return "the BMC's certificate is not trusted" + at + "; give ca=FILE, or insecure=1";
    case httplib::Error::Canceled:
      return "the request was cancelled" + at;
    default:
      return "the request failed (" + httplib::to_string(error) + ")" + at;
  }
}

}  // namespace sb::power
