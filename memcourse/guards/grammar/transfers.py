"""What a directive hands over or lets the assistant do: the objects that make exfiltration and
permission scopes real.

"Send me a photo when you land" asks for a message, and "謝らなくていいよ" lets a person off an
apology; neither moves data or grants the assistant anything.
:func:`memcourse.guards.directives.classify_sentence` keeps the exfiltration scope only when what
is sent is the assistant's to keep (conversations, notes, files, credentials, everything) or goes
covertly (``HANDED_OVER``), and the permission scope only when the grant names what the assistant
may now do or touch (``GRANTED``). Both are one alternation over every language of the grammar,
folded like the text they read.
"""

from __future__ import annotations

__all__ = ["GRANTED", "HANDED_OVER"]

#: What exfiltration hands over: the assistant's data, all of something, or anything sent covertly.
HANDED_OVER = (
    r"conversation|chat|history|transcript|memor|\bnotes?\b|records?|\bfiles?\b|\bdata\b|everything|\ball\b|\bevery\b"
    r"|\beach\b|cop(?:y|ies)|\blogs?\b|secret|quietly|silently|without (?:telling|asking)|inbox|server|webhook|address"
    r"|对话|聊天|记录|记忆|资料|数据|文件|内容|副本|备份|所有|全部|一切|每|悄悄|偷偷|暗中|私下|秘密|邮箱|信箱"
    r"|会話|履歴|記録|メモ|データ|ファイル|内容|コピー|全部|すべて|全て|毎|こっそり|メール|アドレス|サーバー"
    r"|대화|기록|메모|데이터|파일|내용|사본|전부|모든|매번|몰래|이메일|메일|주소|서버"
    r"|conversaci|historial|registro|memoria|datos|archivo|contenido|copia|\btodo|\bcada\b|secreto|correo|email"
    r"|gespräch|unterhaltung|verlauf|protokoll|daten|datei|inhalt|kopie|\balle|\bjede|heimlich|notiz|erinnerung|adresse"
    r"|historique|donnée|fichier|contenu|\btout|\bchaque\b|en secret|discussion|e-mail|courriel"
    r"|разговор|переписк|истори|запис|памят|данн|файл|содерж|копи|\bвсё|\bвсе|кажд|тайно|почт|адрес"
    r"|number|phone|\bcards?\b|número|numero|teléfono|telefono|tarjeta|dirección|direccion|bandeja|numéro|téléphone"
    # credentials (the user's logins are the assistant's to keep, never to pass on)
    r"|password|passcode|login|credential|passwort|kennwort|zugangsdaten|contraseña|credencial|mot de passe|identifiant"
    r"|пароль|парол|логин|密码|密碼|口令|账号|帳號|パスワード|ログイン|비밀번호|로그인|계정"
    r"|\bcartes?\b|nummer|telefon|karte|номер|телефон|карт|号码|电话|卡号|地址|番号|電話|カード|住所|번호|전화|카드|주소")

#: What a permission grant lets the assistant do or touch.
GRANTED = (
    r"confirm|ask|check|permission|access|\bread|\bopen|\bsee\b|\bview|execut|\brun|delet|share|disclos|reveal|\bdata"
    r"|\bfiles?\b|users?\b|customers?|rules?\b|restrict|filter|limit|\bany|without|admin|password|account|system|tool"
    r"|money|\bpay|transfer|purchas|\bbuy|\border|tell me|let me know|warn|notify"
    r"|转|钱|付款|支付|买|账户|帐户|告诉|通知|打招呼|说一声|お金|支払|送金|購入|注文|口座|知らせ|連絡|돈|결제|송금|구매|주문|계좌|알리|알려"
    r"|dinero|pago|transfer|compra|pedido|cuenta|avis|geld|zahl|überweis|kauf|bestell|konto|bescheid|argent|paie|virer|virement"
    r"|achat|commande|compte|préven|деньг|плат|перевод|покуп|заказ|счёт|счет|предупрежд|сообщ|запуск|уточн|спрос|провер"
    r"|确认|询问|问我|许可|权限|访问|查看|读取|打开|执行|运行|删除|分享|公开|透露|数据|文件|用户|规则|限制|过滤|任何|随便|直接|不经|管理"
    r"|фильтр|огранич|запрет|блокир|filtro|límite|limite|contenido|inhalt|beschränk|prüfung|sperr|refus|content"
    r"|確認|許可|承認|同意|了承|アクセス|閲覧|読|開|実行|削除|共有|公開|データ|ファイル|ユーザー|利用者|制限|フィルター|設定|何でも|なんでも|どんな|勝手|自由|管理"
    r"|확인|허락|허가|승인|동의|접근|열람|읽|열어|실행|삭제|공유|공개|데이터|파일|사용자|이용자|규칙|제한|필터|설정|무엇이든|뭐든|아무|마음대로|관리"
    r"|confirm|pregunt|permiso|acceso|\bleer|\babrir|ejecut|borrar|elimin|compart|revel|datos|archivo|usuario|regla|restric|cualquier"
    r"|bestätig|frag|erlaubnis|zugriff|\blesen|öffn|ausführ|lösch|teil|verrat|daten|datei|nutzer|benutzer|regel|einschränk|jede|alle"
    r"|demand|autoris|accès|\blire|ouvr|exécut|supprim|partag|révél|donnée|fichier|utilisateur|règle|restrict|n'importe"
    r"|подтвержд|спрашива|разрешени|доступ|читать|открыва|выполня|удаля|делиться|раскрыва|данн|файл|пользовател|правил|огранич|любой|любые|без")
