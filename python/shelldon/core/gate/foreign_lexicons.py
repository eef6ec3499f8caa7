"""The first five shapes of an order to the reader (override, reveal, obey, unasked, noask) in
the eight languages `gate.foreign_orders` reads by lexicon: Korean, Japanese, Turkish, Polish,
Vietnamese, Indonesian, Hindi written in Latin letters, and Swahili (docs/gate-design.md, "Open
classes"). Each language: shape -> (first half, second half), alternatives of regex fragments on
folded text (`foreign_orders.fold`). Latin-script words are matched at a word's start ("\\b" is
added), Korean and Japanese anywhere (they write words together). Data only; the reader is
`gate.foreign_orders`, more shapes `gate.foreign_shapes`, more languages `gate.foreign_scripts`.
"""

from __future__ import annotations

Lexicon = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


KOREAN: Lexicon = {
    "override": (
        ("무시", "잊어", "잊고", "따르지 ?마", "따르지 ?말"),
        (
            "모든 ?(?:\\S+ )?(?:지시|규칙|명령|지침|설정)",
            "이전(?:의)? ?(?:\\S+ )?(?:지시|규칙|명령|지침)",
            "(?:너|당신)의 ?(?:지시|규칙|명령|지침)",
        ),
    ),
    "reveal": (
        ("보여", "알려", "공개", "출력", "말해", "털어놔"),
        ("금고", "비밀번호", "시스템 ?프롬프트", "api ?키", "비밀 ?키", "보관함"),
    ),
    "obey": (
        ("복종", "따라", "따르", "말만 ?들어", "말을 ?들어"),
        (
            "모델",
            "인공지능",
            "\\bai\\b",
            "주인 ?말고",
            "주인이 ?아니",
            "주인 ?대신",
            "소유자 ?말고",
        ),
    ),
    "unasked": (
        ("승인", "병합", "머지", "merge", "푸시", "push", "삭제"),
        (
            "묻지 ?(?:말고|않고)",
            "물어보지 ?(?:말고|않고)",
            "확인 ?없이",
            "확인하지 ?(?:말고|않고)",
            "허락 ?없이",
            "허락 ?받지 ?(?:말고|않고)",
            "동의 ?없이",
        ),
    ),
    "noask": (
        ("묻지 ?마", "물어보지 ?마", "확인(?:받|하)지 ?마", "허락(?:을 )?받지 ?마"),
        ("주인", "소유자", "사용자"),
    ),
}

JAPANESE: Lexicon = {
    "override": (
        ("無視", "忘れ", "従わな"),
        (
            "(?:これまで|以前|前|今まで|すべて|全て|あなた)の(?:\\S{0,6})?(?:指示|ルール|規則|命令|指令|設定|ガイドライン)",
            "(?:指示|ルール|規則|命令|指令|ガイドライン)(?:は|を)(?:すべて|全て|全部)",
        ),
    ),
    "reveal": (
        ("表示", "出力", "見せ", "教えて", "公開", "開示", "明かし", "漏ら"),
        ("保管庫", "金庫", "パスワード", "システムプロンプト", "apiキー", "秘密鍵", "暗証番号"),
    ),
    "obey": (
        ("従[えいうっ]", "服従", "言うことを聞"),
        (
            "モデル",
            "人工知能",
            "\\bai\\b",
            "(?:所有者|持ち主|オーナー|飼い主)(?:ではなく|じゃなく|より)",
        ),
    ),
    "unasked": (
        ("承認", "マージ", "merge", "プッシュ", "push", "削除"),
        (
            "確認せず",
            "確認しないで",
            "確認なし",
            "聞かずに",
            "尋ねずに",
            "許可なく",
            "許可なし",
            "相談せず",
            "断りなく",
        ),
    ),
    "noask": (
        (
            "聞かないで",
            "聞くな",
            "尋ねないで",
            "確認しないで",
            "確認するな",
            "相談しないで",
            "許可を取らないで",
        ),
        ("所有者", "持ち主", "オーナー", "飼い主", "ユーザー"),
    ),
}

TURKISH: Lexicon = {
    "override": (
        ("yok say", "gormezden gel", "unut", "uyma", "dikkate alma"),
        ("(?:tum|butun|onceki|kendi|senin)\\s+(?:\\S+\\s+)?(?:talimat|kural|yonerge|komut|emir)",),
    ),
    "reveal": (
        ("goster", "ifsa et", "acikla", "yazdir", "soyle", "paylas"),
        ("kasa", "sifre", "parola", "anahtar", "sistem istem"),
    ),
    "obey": (
        ("itaat", "dinle", "uy\\b", "uyacak", "soz dinle"),
        ("model", "yapay zeka", "(?:sahibini|sahibi|kullaniciyi|kullanici) degil"),
    ),
    "unasked": (
        ("onayla", "birlestir", "merge", "push", "sil\\b", "sil\\s"),
        ("sormadan", "sormaksizin", "onay almadan", "izin almadan", "danismadan"),
    ),
    "noask": (
        ("sorma\\b", "sormayin", "danisma\\b", "onay isteme", "izin isteme"),
        ("sahib", "kullanici"),
    ),
}

POLISH: Lexicon = {
    "override": (
        ("zignoruj", "ignoruj", "zapomnij", "pomin", "nie stosuj sie", "nie przestrzegaj"),
        (
            "(?:wszystk|swoj|twoj|poprzedni|wczesniejsz)\\w*\\s+(?:\\S+\\s+)?(?:zasad|instrukcj|polecen|regul|wytyczn)",
        ),
    ),
    "reveal": (
        ("pokaz", "ujawnij", "wypisz", "podaj", "zdradz", "wyswietl"),
        ("sejf", "skarbc", "hasl", "klucz", "prompt systemow", "systemow\\w* prompt"),
    ),
    "obey": (
        ("sluchaj", "sluchac", "wykonuj polecenia", "podporzadkuj", "badz posluszn"),
        (
            "model",
            "sztuczn\\w* inteligencj",
            "\\bai\\b",
            "(?:a )?nie wlasciciel",
            "zamiast wlasciciel",
        ),
    ),
    "unasked": (
        ("zatwierdz", "scal", "merge", "wypchnij", "push", "usun"),
        ("bez pytania", "bez zgody", "bez pytan", "nie pytajac", "bez konsultacji"),
    ),
    "noask": (
        ("nie pytaj", "nie konsultuj", "nie pros o zgode"),
        ("wlasciciel", "uzytkownik"),
    ),
}

VI_RULES = "(?:huong dan|chi dan|quy tac|lenh|chi thi|quy dinh)"
VIETNAMESE: Lexicon = {
    "override": (
        ("bo qua", "phot lo", "quen di", "khong tuan theo", "dung tuan theo", "dung lam theo"),
        (
            "(?:moi|tat ca|toan bo)\\s+(?:cac\\s+|nhung\\s+)?" + VI_RULES,
            VI_RULES + "\\s+(?:truoc do|truoc day|cua ban|ban dau)",
        ),
    ),
    "reveal": (
        ("tiet lo", "hien thi", "cho (?:toi )?xem", "in ra", "noi ra", "cung cap"),
        ("kho bi mat", "ket sat", "mat khau", "khoa api", "khoa bi mat", "loi nhac he thong"),
    ),
    "obey": (
        ("nghe theo", "tuan theo", "vang loi", "lam theo"),
        # not "ai": in Vietnamese it is "who" ("ai cũng nên làm theo ...")
        ("mo hinh", "tri tue nhan tao", "chatbot", "khong phai (?:la )?chu", "thay vi chu"),
    ),
    "unasked": (
        ("chap thuan", "phe duyet", "hop nhat", "merge", "push", "xoa", "day len"),
        ("khong (?:can )?hoi", "khong xin phep", "khong can xin", "khong can su dong y"),
    ),
    "noask": (
        ("dung hoi", "khong (?:can )?hoi", "dung xin phep", "khong can xin phep"),
        ("chu so huu", "chu nhan", "nguoi dung"),
    ),
}

INDONESIAN: Lexicon = {
    "override": (
        ("abaikan", "lupakan", "jangan ikuti", "acuhkan"),
        (
            "(?:semua|seluruh)\\s+(?:\\S+\\s+)?(?:aturan|instruksi|perintah|petunjuk|arahan|pedoman)",
            "(?:aturan|instruksi|perintah|petunjuk|arahan|pedoman)(?:mu\\b|\\s+(?:sebelumnya|anda|kamu))",
        ),
    ),
    "reveal": (
        ("tampilkan", "tunjukkan", "ungkapkan", "bocorkan", "berikan", "sebutkan", "cetak"),
        ("brankas", "kata sandi", "kunci api", "kunci rahasia", "prompt sistem"),
    ),
    "obey": (
        ("patuhi", "patuh", "turuti", "dengarkan", "ikuti"),
        (
            "model",
            "kecerdasan buatan",
            "\\bai\\b",
            "bukan (?:kepada )?(?:pemilik|pengguna)",
            "daripada (?:pemilik|pengguna)",
        ),
    ),
    "unasked": (
        ("setujui", "gabungkan", "merge", "push", "hapus"),
        (
            "tanpa bertanya",
            "tanpa izin",
            "tanpa persetujuan",
            "tanpa konfirmasi",
            "tanpa menanyakan",
        ),
    ),
    "noask": (
        ("jangan (?:tanya|bertanya|menanyakan|minta izin)", "tidak perlu (?:bertanya|minta izin)"),
        ("pemilik", "pengguna"),
    ),
}

HINDI_LATIN: Lexicon = {
    "override": (
        ("bh?oo?l ja", "bhoolo", "bhulo", "ignore kar", "nazarandaz", "mat maa?no"),
        (
            "(?:saare|sare|sab|pichh?le|apne|tumhare|aapke)\\s+(?:\\S+\\s+)?(?:niyam|nirdesh|hidayat|rules|instructions|aa?desh)",
        ),
    ),
    "reveal": (
        ("dikhao", "dikha do", "batao", "bata do", "khol do", "print karo", "leak karo"),
        ("vault", "tijori", "password", "system prompt", "api key", "secret key"),
    ),
    "obey": (
        ("baat maa?no", "kehna maa?no", "hukm maa?no", "aadesh maa?no"),
        ("model", "\\bai\\b", "(?:owner|malik|maalik|mali?k) (?:ki|ka) (?:baat )?nahi"),
    ),
    "unasked": (
        ("approve", "merge", "push", "delete"),
        (
            "pooc?he bina",
            "puc?he bina",
            "bina pooc?he",
            "bina puc?he",
            "ijazat ke bina",
            "bina ijazat",
            "bina permission",
        ),
    ),
    "noask": (
        ("mat pooc?h", "mat puc?h", "na pooc?ho", "na puc?ho"),
        ("owner", "malik", "maalik", "user"),
    ),
}

SWAHILI: Lexicon = {
    "override": (
        ("puuza", "sahau", "usifuate", "acha kufuata"),
        (
            "(?:maagizo|sheria|maelekezo|amri|kanuni)\\s+"
            "(?:yote|zote|ya awali|za awali|yako|zako|yaliyopita|zilizopita)",
        ),
    ),
    "reveal": (
        ("\\w{0,3}fichu", "onyesha", "funua", "chapisha", "nionyeshe"),
        ("hazina", "nywila", "neno la siri", "sefu", "funguo za siri"),
    ),
    "obey": (
        ("\\w{0,2}tii\\b", "sikiliza", "fuata"),
        (
            "modeli",
            "model\\b",
            "akili bandia",
            "\\bai\\b",
            "badala ya (?:mmiliki|mtumiaji)",
            "si (?:ya )?mmiliki",
            "sio (?:ya )?mmiliki",
        ),
    ),
    "unasked": (
        ("idhinisha", "unganisha", "merge", "push", "futa"),
        ("bila kuuliza", "bila ruhusa", "bila idhini", "bila kumuuliza"),
    ),
    "noask": (
        ("usimuulize", "usiulize", "usiombe ruhusa"),
        ("mmiliki", "mtumiaji"),
    ),
}
