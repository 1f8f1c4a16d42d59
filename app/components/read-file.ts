/** A file the user picked, as text or as base64 (the data URL's prefix cut off). */
export const readFile = (file: File, as: 'text' | 'base64') =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => resolve(as === 'text' ? String(reader.result) : String(reader.result).replace(/^data:[^,]*,/, ''));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });

/** A PEM certificate and its key picked as two files, with the key's password where one was typed. */
export const readPemPair = async (cert: File, key: File, password: string) => ({
  format: 'pem' as const,
  certificatePem: await readFile(cert, 'text'),
  privateKeyPem: await readFile(key, 'text'),
  keyPassword: password || undefined,
});
