// libqrencode (Debian's libqrencode-dev): the QR code `vocab serve` prints for a phone to scan.
#include <qrencode.h>
