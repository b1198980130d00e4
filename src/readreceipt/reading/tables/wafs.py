"""Web application firewalls' own block pages, from a maintained fingerprint list: wafw00f.

wafw00f (PyPI ``wafw00f`` 2.4.2, BSD-3-Clause, "The Web Application Firewall Fingerprinting
Toolkit") keeps one plugin per firewall vendor, about 170, each naming what the vendor's
responses carry: headers, cookies and the markup and sentences of its block page. Measured
as a detector on the pages readreceipt is measured on (``bench/vendors.py --wafw00f-python``:
57 bot checks and 665 clean pages of the corpus, tests/pages and bench/heldout.py's sets), its
plugins found 11 of the bot checks and flagged 5 clean pages (a CDN's status-page link in an
article's footer, a bank's "Security Alert", a vendor's analytics script on its own site's
pages); every bot check it found, readreceipt's own tables found too. So its detector is not
taken, and its headers and cookies are not (a fingerprinting tool asks who fronts a site,
which ordinary pages answer as well as block pages do). What is taken is what this table
lacked: the *block-page* markers of the vendors readreceipt's tables did not know (Chinese
and Russian cloud firewalls, WordPress and Joomla security plugins, enterprise firewalls and
web filters, the last named interstitials as blocks.py names filters' pages: the reader's
network refused the address, not the site), each the vendor's own asset path, class name or
the fixed sentence of its template naming the vendor, and none of the markers that fired on
a clean page above, nor generic words ("Access Denied", "Event ID", a bare "403 Forbidden"
title), which the wording tables judge by their place instead.

None of these is exercised by a page measured here (no page here carries them; the tests
build one page per entry from the vendor's marker), so each is kept at the gate of a page
that is the wall and nothing else (``block``): on a long page the same string is a site
talking about its firewall. The sentences stand where wafw00f's patterns allow any
character between words (``.{0,10}?``) as a bounded run of non-word characters.

Invariants: lower case (the tables' rule); every entry names its vendor and the plugin it is
from; no header or cookie rule here.
"""

from __future__ import annotations

from readreceipt.reading.tables.entries import Entry, lit, rx

__all__ = ["WAF_PAGES"]

_CH = "challenge"
_BLOCKED = "a bot check: a web application firewall refused the request"


def _ev(plugin: str) -> str:
    return f"wafw00f 2.4.2 plugins/{plugin}.py (BSD-3-Clause)"


def _m(marker: str, vendor: str, plugin: str) -> Entry:
    """A marker of the vendor's block page in the lower-cased markup."""
    return lit(_CH, "markup", marker, vendor=vendor, what=_BLOCKED, ev=_ev(plugin))


def _t(sentence: str, vendor: str, plugin: str) -> Entry:
    """A fixed sentence of the vendor's block page, naming the vendor or its product."""
    return lit(_CH, "text", sentence, vendor=vendor, what=_BLOCKED, ev=_ev(plugin))


def _f(where: str, said: str, vendor: str, plugin: str) -> Entry:
    """A web filter's block page: the reader's own network refused the address, which is an
    interstitial (as blocks.py names filters' and regulators' pages), not the site's bot
    check."""
    return lit("interstitial", where, said, vendor=vendor, what="a web filter's block page",
               ev=_ev(plugin))


def _r(where: str, expr: str, name: str, vendor: str, plugin: str, anchor: str) -> Entry:
    return rx(_CH, where, expr, name, vendor=vendor, what=_BLOCKED, ev=_ev(plugin),
              anchor=anchor if where == "markup" else None)


WAF_PAGES: tuple[Entry, ...] = (
    # Chinese cloud and host firewalls.
    _r("markup", r"errors?\.aliyun(dun)?\.(com|net)", "Alibaba Cloud's block page (errors.aliyun)",
       "Alibaba Cloud (AliYunDun)", "aliyundun", ".aliyun"),
    _m("aqb_cc/error/", "Anquanbao", "anquanbao"),
    _t("your access has been intercepted by anyu", "AnYu", "anyu"),
    _m("/.well-known/yunjiasu-cgi/", "Baidu Yunjiasu", "baidu"),
    _m("yjs_use_ob=0", "Baidu Yunjiasu", "baidu"),
    _t("bluedon web application firewall", "Bluedon", "bluedon"),
    _t("cdnnswaf application gateway", "CdnNS", "cdnns"),
    _m("help.365cyd.com/cyd-error-help", "Chuang Yu Shield", "chuangyu"),
    _m("/eisoo-firewall-block.css", "Eisoo", "eisoo"),
    _m("hws_security@", "Huawei Cloud", "huaweicloud"),
    _m("notice-jiasule", "Jiasule", "jiasule"),
    _m("static.jiasule.com", "Jiasule", "jiasule"),
    _r("markup", r"/ks[-_]waf[-_]error\.png", "KnownSec's block page image", "KnownSec KS-WAF",
       "knownsec", "waf"),
    _m("/nd-block/", "Newdefend", "newdefend"),
    _m("newdefend.com/feedback", "Newdefend", "newdefend"),
    _t("腾讯云web应用防火墙", "Tencent Cloud", "qcloud"),
    _r("markup", r"waf\.tencent-?(cloud)?\.com/", "Tencent Cloud's block page (waf.tencent)",
       "Tencent Cloud", "tencent", "waf.tencent"),
    _m("safedogsite/broswer_logo.jpg", "Safedog", "safedog"),
    _m("404.safedog.cn/", "Safedog", "safedog"),
    _m("/uewaf_deny_pages/", "UCloud UEWaf", "uewaf"),
    _m("wzws-waf-cgi/", "360 WangZhanBao", "wzb360"),
    _m("admin.dbappwaf.cn", "Xuanwudun (DBAPPSecurity)", "xuanwudun"),
    _t("blocked by yundun cloud waf", "Yundun", "yundun"),
    _r("markup", r"yundun\.com/yd[-_]http[_-]error/", "Yundun's error page", "Yundun",
       "yundun", "yundun.com/yd"),
    _m('class="yunsuologo"', "Yunsuo", "yunsuo"),
    # Russian, Vietnamese, Turkish, Korean, Japanese and Indian vendors.
    _m("nemesida-security.com", "Nemesida", "nemesida"),
    _r("text", r"suspicious activity detected\W{0,10}access to the site is blocked",
       "suspicious activity detected, access to the site is blocked", "Nemesida", "nemesida",
       ""),
    _m("cdn.virusdie.ru/splash/firewallstop.png", "Virusdie", "virusdie"),
    _t("viettel waf system", "Viettel (Cloudrity)", "viettel"),
    _m("bekchy.com/report", "Bekchy", "bekchy"),
    _t("powered by siteguard", "SiteGuard (EG Secure Solutions)", "siteguard"),
    _t("the server refuse to browse the page", "SiteGuard (EG Secure Solutions)", "siteguard"),
    _t("your request was blocked by cloudbric", "Cloudbric (Penta Security)", "cloudbric"),
    _m("cloudbric.zendesk.com", "Cloudbric (Penta Security)", "cloudbric"),
    _t("this website is secured against online attacks. your request was blocked",
       "IndusGuard (Indusface)", "indusguard"),
    # WordPress, Joomla and PHP security plugins.
    _m("aesecure_denied.png", "aeSecure", "aesecure"),
    _m("astrawebsecurity.freshdesk.com", "Astra", "astra"),
    _m("getastra.com/assets/images", "Astra", "astra"),
    _m("bpsmessage", "BulletProof Security", "bulletproof"),
    _t("your request looks suspicious or similar to automated", "WP Cerber", "cerber"),
    _t("requests from spam posting software", "WP Cerber", "cerber"),
    _t("this site is protected by crawlprotect", "CrawlProtect", "crawlprotect"),
    _t("blocked because of malicious activities", "MalCare", "malcare"),
    _r("text", r"for security reasons?\W{0,10}it was blocked and logged",
       "for security reasons it was blocked and logged", "NinjaFirewall", "ninja", ""),
    _m("com_rsfirewall_", "RSFirewall", "rsfirewall"),
    _t("you were blocked by the shield", "Shield Security", "shieldsecurity"),
    _t("remaining transgression(s) against this site", "Shield Security", "shieldsecurity"),
    _m("shieldon_captcha", "Shieldon", "shieldon"),
    lit("interstitial", "text", "this page is limiting the number of people online. please "
        "wait a moment.", vendor="Shieldon", what="a waiting room", ev=_ev("shieldon")),
    _t("our system thinks you might be a robot!", "SiteGround", "siteground"),
    _t("access is restricted due to a security rule", "SiteGround", "siteground"),
    _m("/wp-content/plugins/webarx/includes/", "WebARX", "webarx"),
    _t("this request has been deemed suspicious", "WPMU DEV", "wpmudev"),
    _r("text", r"broke one of (the )?wordfence (advanced )?blocking rules",
       "broke one of the Wordfence blocking rules", "Wordfence", "wordfence", ""),
    # Firewalls of hosting providers and enterprises, and web filters of readers' networks.
    _t("blocked by website protection from armor", "Armor", "armor"),
    _t("security by cachewall", "CacheWall", "cachewall"),
    _m("distilcaptchaform", "Distil", "distil"),
    _m("distilcallbackguard", "Distil", "distil"),
    _t("dotdefender blocked your request", "dotDefender", "dotdefender"),
    _f("markup", "globalurl.fortinet.net", "Fortinet", "fortigate"),
    _t("fortiguard intrusion prevention", "Fortinet", "fortiguard"),
    _f("text", "fortigate application control", "Fortinet", "fortigate"),
    _m("fgd_icon", "Fortinet FortiWeb", "fortiweb"),
    _t("godaddy website firewall", "GoDaddy", "godaddy"),
    _t("contact the website owner or grey wizard", "Grey Wizard", "greywizard"),
    _t("powered by incapsula", "Imperva", "incapsula"),
    _r("text", r"contact support for additional information\W{0,4}the incident id is",
       "the incident ID is", "Imperva SecureSphere", "securesphere", ""),
    _r("text", r"(protected|powered) by\W{0,10}imunify360", "protected by Imunify360",
       "Imunify360", "imunify360", ""),
    _t("janusec application gateway", "Janusec", "janusec"),
    _m("/modsecurity_errorpage/", "ModSecurity", "modsecurity"),
    _t("blocked by naxsi", "NAXSI", "naxsi"),
    _t("naxsi blocked information", "NAXSI", "naxsi"),
    _r("text", r"violation category\W{0,5}appfw_", "violation category APPFW_",
       "Citrix NetScaler AppFirewall", "netscaler", ""),
    _t("powered by nexusguard", "Nexusguard", "nexusguard"),
    _m("<title>fw_error_www", "Oracle Cloud", "oraclecloud"),
    _f("text", "palo alto next generation security platform", "Palo Alto Networks",
       "paloalto"),
    _m("perimeterx.com/whywasiblocked", "PerimeterX (HUMAN)", "perimeterx"),
    _m("perimeterx.net/whywasiblocked", "PerimeterX (HUMAN)", "perimeterx"),
    _t("denied because we believe you are using automation tools", "PerimeterX (HUMAN)",
       "perimeterx"),
    _r("text", r"a safety critical (call|request) was (detected|discovered) and blocked",
       "a safety critical request was detected and blocked", "pkSecurity", "pksec", ""),
    _m("cloudwebsec.radware.com", "Radware", "radware"),
    _t("current session has been terminated", "Reblaze", "reblaze"),
    _m("senginx-robot-mitigation", "SEnginx", "senginx"),
    _t("request forbidden by administrative rules", "Shadow Daemon", "shadowd"),
    _t("sitelock incident id", "SiteLock", "sitelock"),
    _t("incident was logged with the following log identifier", "Sophos UTM", "sophos"),
    _t("an action has triggered the service and blocked your request", "StackPath",
       "stackpath"),
    _m("sucuri-firewall-block.css", "Sucuri", "sucuri"),
    _m("sucuri_firewall_block.css", "Sucuri", "sucuri"),
    _m("cloudproxy@sucuri.net", "Sucuri", "sucuri"),
    _r("markup", r"rejected[-_]by[-_]urlscan", "URLScan's rejection", "Microsoft URLScan",
       "urlscan", "urlscan"),
    _t("request rejected by xvarnish-waf", "xVarnish", "varnish"),
    _t("webknight application firewall alert", "AQTRONIX WebKnight", "webknight"),
    _m("this is a webseal error message template file", "IBM WebSEAL", "webseal"),
    _t("webseal server received an invalid http request", "IBM WebSEAL", "webseal"),
    _m("/__zenedge/", "Zenedge", "zenedge"),
    _f("text", "zscaler to protect you from internet threats", "Zscaler", "zscaler"),
    _f("markup", "login.zscloud.net/img_logo_new1.png", "Zscaler", "zscaler"),
)
